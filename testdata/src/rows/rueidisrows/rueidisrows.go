// Package rueidisrows covers rueidis's Do and DoMulti: a publish only when
// the built command is PUBLISH or XADD; SET is cache work, and a list push
// is no publish in a package that never pops a list.
package rueidisrows

import (
	"context"
	"database/sql"

	"github.com/redis/rueidis"
)

var (
	ctx = context.Background()
	db  *sql.DB
)

func save() { db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1") }

func posPublish(c rueidis.Client) {
	save()
	c.Do(ctx, c.B().Publish().Channel("orders").Message("{}").Build()) // want "OBX001"
}

func posXadd(c rueidis.Client) {
	save()
	c.DoMulti(ctx, c.B().Xadd().Key("orders").Id("*").FieldValue().FieldValue("id", "1").Build()) // want "OBX001"
}

func negSet(c rueidis.Client) {
	save()
	c.Do(ctx, c.B().Set().Key("order:1").Value("{}").Build())
	c.DoMulti(ctx, c.B().Set().Key("order:1").Value("{}").Build())
}

func negListPush(c rueidis.Client) {
	save()
	c.Do(ctx, c.B().Lpush().Key("recent").Element("1").Build())
}

func negPublishAlone(c rueidis.Client) {
	c.Do(ctx, c.B().Publish().Channel("orders").Message("{}").Build())
}
