// Package txrows has positive (pos*) and negative (neg*) cases for the
// transaction rows: Begin/Commit/Rollback and the callback forms, plus
// cache writes and consumers, which are never DB writes on their own.
package txrows

import (
	"context"
	"database/sql"
	"time"

	"cloud.google.com/go/datastore"
	"cloud.google.com/go/firestore"
	"cloud.google.com/go/spanner"
	"github.com/IBM/sarama"
	pgx4 "github.com/jackc/pgx/v4"
	pgxpool4 "github.com/jackc/pgx/v4/pgxpool"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"
	"github.com/segmentio/kafka-go"
	"github.com/uptrace/bun"
	"go.mongodb.org/mongo-driver/mongo"
	mongo2 "go.mongodb.org/mongo-driver/v2/mongo"
	"gorm.io/gorm"

	"github.com/go-gorp/gorp"
	gorp3 "github.com/go-gorp/gorp/v3"
	"github.com/gogf/gf/v2/database/gdb"
	gorm1 "github.com/jinzhu/gorm"

	"outbox"
)

var (
	ctx = context.Background()
	w   *kafka.Writer
)

const upd = "UPDATE orders SET status = 'paid' WHERE id = $1"

func pub() { w.WriteMessages(ctx, kafka.Message{Topic: "orders"}) }

func posSQLCommit(db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	tx.ExecContext(ctx, upd)
	if err := tx.Commit(); err != nil {
		return err
	}
	pub() // want "OBX002"
	return nil
}

func negSQLCommit(db *sql.DB) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	tx.ExecContext(ctx, upd)
	outbox.Insert(ctx, tx, outbox.Message{AggregateType: "orders"})
	return tx.Commit()
}

func posConnBeginTx(c *sql.Conn) {
	tx, _ := c.BeginTx(ctx, nil)
	tx.Exec(upd)
	pub() // want "OBX003"
	tx.Commit()
}

func negConnBeginTx(c *sql.Conn) {
	tx, _ := c.BeginTx(ctx, nil)
	tx.Exec(upd)
	tx.Commit()
}

func posPgxBegin(p *pgxpool.Pool, c *pgx.Conn, pc *pgxpool.Conn) {
	tx, _ := p.Begin(ctx)
	tx.Exec(ctx, upd)
	tx.Commit(ctx)
	pub() // want "OBX002"
	tx2, _ := c.BeginTx(ctx, pgx.TxOptions{})
	tx2.Exec(ctx, upd)
	pub() // want "OBX003"
	tx2.Commit(ctx)
	tx3, _ := pc.Begin(ctx)
	tx3.Exec(ctx, upd)
	tx3.Rollback(ctx)
	pub() // want "OBX003"
}

func negPgxBegin(p *pgxpool.Pool, c *pgx.Conn, pc *pgxpool.Conn) {
	tx, _ := p.BeginTx(ctx, pgx.TxOptions{})
	tx.Exec(ctx, upd)
	outbox.Insert(ctx, tx, outbox.Message{})
	tx.Commit(ctx)
	tx2, _ := c.Begin(ctx)
	tx2.Rollback(ctx)
	tx3, _ := pc.BeginTx(ctx, pgx.TxOptions{})
	tx3.Commit(ctx)
	pub()
}

func posPgxNested(tx pgx.Tx, ptx *pgxpool.Tx) {
	sp, _ := tx.Begin(ctx)
	sp.Exec(ctx, upd)
	sp.Commit(ctx)
	pub() // want "OBX002"
	ptx.Exec(ctx, upd)
	ptx.Commit(ctx)
	pub() // want "OBX002"
}

func negPgxNested(ptx *pgxpool.Tx) {
	ptx.Exec(ctx, upd)
	ptx.Rollback(ctx)
}

func posPgxBeginFunc(p *pgxpool.Pool) {
	pgx.BeginFunc(ctx, p, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, upd)
		pub() // want "OBX003"
		return err
	})
	pgx.BeginTxFunc(ctx, p, pgx.TxOptions{}, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, upd)
		return err
	})
	pub() // want "OBX002"
}

func negPgxBeginFunc(p *pgxpool.Pool) {
	pgx.BeginFunc(ctx, p, func(tx pgx.Tx) error {
		tx.Exec(ctx, upd)
		return outbox.Insert(ctx, tx, outbox.Message{})
	})
	pgx.BeginTxFunc(ctx, p, pgx.TxOptions{}, func(tx pgx.Tx) error {
		tx.Exec(ctx, upd)
		return outbox.Insert(ctx, tx, outbox.Message{})
	})
}

func posPgx4BeginFunc(c *pgx4.Conn, p *pgxpool4.Pool) {
	c.BeginFunc(ctx, func(tx pgx4.Tx) error {
		tx.Exec(ctx, upd)
		pub() // want "OBX003"
		return nil
	})
	c.BeginTxFunc(ctx, pgx4.TxOptions{}, func(tx pgx4.Tx) error { tx.Exec(ctx, upd); return nil })
	pub() // want "OBX002"
	p.BeginFunc(ctx, func(tx pgx4.Tx) error { tx.Exec(ctx, upd); return nil })
	pub() // want "OBX002"
	p.BeginTxFunc(ctx, pgx4.TxOptions{}, func(tx pgx4.Tx) error {
		tx.Exec(ctx, upd)
		pub() // want "OBX003"
		return nil
	})
}

func negPgx4BeginFunc(c *pgx4.Conn, p *pgxpool4.Pool) {
	c.BeginFunc(ctx, func(tx pgx4.Tx) error { tx.Exec(ctx, upd); return outbox.Insert(ctx, tx, outbox.Message{}) })
	c.BeginTxFunc(ctx, pgx4.TxOptions{}, func(tx pgx4.Tx) error { tx.Exec(ctx, upd); return outbox.Insert(ctx, tx, outbox.Message{}) })
	p.BeginFunc(ctx, func(tx pgx4.Tx) error { tx.Exec(ctx, upd); return outbox.Insert(ctx, tx, outbox.Message{}) })
	p.BeginTxFunc(ctx, pgx4.TxOptions{}, func(tx pgx4.Tx) error { tx.Exec(ctx, upd); return outbox.Insert(ctx, tx, outbox.Message{}) })
	pub()
}

func posPgx4Tx(c *pgx4.Conn, p *pgxpool4.Pool) {
	tx, _ := c.Begin(ctx)
	tx.Exec(ctx, upd)
	tx.Commit(ctx)
	pub() // want "OBX002"
	ptx, _ := p.BeginTx(ctx, pgx4.TxOptions{})
	ptx.Exec(ctx, upd)
	pub() // want "OBX003"
	ptx.Rollback(ctx)
}

func negPgx4Tx(c *pgx4.Conn, p *pgxpool4.Pool, pc *pgxpool4.Conn, ptx *pgxpool4.Tx) {
	tx, _ := c.BeginTx(ctx, pgx4.TxOptions{})
	tx.Exec(ctx, upd)
	outbox.Insert(ctx, tx, outbox.Message{})
	tx.Commit(ctx)
	t2, _ := p.Begin(ctx)
	t2.Rollback(ctx)
	t3, _ := pc.Begin(ctx)
	t3.Commit(ctx)
	t4, _ := pc.BeginTx(ctx, pgx4.TxOptions{})
	t4.Commit(ctx)
	ptx.Commit(ctx)
	ptx.Rollback(ctx)
	pub()
}

func posSqlx(db *sqlx.DB) {
	tx, _ := db.Beginx()
	tx.MustExec(upd)
	tx.Commit()
	pub() // want "OBX002"
	tx2, _ := db.BeginTxx(ctx, nil)
	tx2.MustExec(upd)
	pub() // want "OBX003"
	tx2.Commit()
	tx3 := db.MustBegin()
	tx3.MustExec(upd)
	tx3.Commit()
	pub() // want "OBX002"
	tx4 := db.MustBeginTx(ctx, nil)
	tx4.NamedExec(upd, nil)
	pub() // want "OBX003"
	tx4.Commit()
}

func negSqlx(db *sqlx.DB) {
	tx := db.MustBegin()
	tx.MustExec(upd)
	outbox.Insert(ctx, tx, outbox.Message{})
	tx.Commit()
	tx2, _ := db.Beginx()
	tx2.Rollback()
	tx3, _ := db.BeginTxx(ctx, nil)
	tx3.Rollback()
	tx4 := db.MustBeginTx(ctx, nil)
	tx4.Rollback()
	pub()
}

type Order struct{ ID string }

type OutboxMessage struct{ ID string }

func posGorm(db *gorm.DB) {
	db.Transaction(func(tx *gorm.DB) error {
		tx.Create(&Order{})
		pub() // want "OBX003"
		return nil
	})
	pub() // want "OBX002"
	tx := db.Begin()
	tx.Save(&Order{})
	tx.Commit()
	pub() // want "OBX002"
	tx2 := db.Begin()
	tx2.Save(&Order{})
	pub() // want "OBX003"
	tx2.Rollback()
}

func negGorm(db *gorm.DB) {
	db.Transaction(func(tx *gorm.DB) error {
		tx.Create(&Order{})
		return tx.Create(&OutboxMessage{}).Error
	})
	tx := db.Begin()
	tx.Save(&Order{})
	tx.Table("outbox").Create(map[string]any{})
	tx.Commit()
	tx2 := db.Begin()
	tx2.Rollback()
}

// jinzhu/gorm (gorm v1): the same shapes as gorm v2
func posGorm1(db *gorm1.DB) {
	db.Transaction(func(tx *gorm1.DB) error {
		tx.Create(&Order{})
		pub() // want "OBX003"
		return nil
	})
	pub() // want "OBX002"
	tx := db.Begin()
	tx.Save(&Order{})
	tx.Commit()
	pub() // want "OBX002"
	tx2 := db.Begin()
	tx2.Save(&Order{})
	pub() // want "OBX003"
	tx2.Rollback()
}

func negGorm1(db *gorm1.DB) {
	db.Transaction(func(tx *gorm1.DB) error {
		tx.Create(&Order{})
		return tx.Create(&OutboxMessage{}).Error
	})
	tx := db.Begin()
	tx.Save(&Order{})
	tx.Table("outbox").Create(map[string]any{})
	tx.Commit()
	tx2 := db.Begin()
	tx2.Rollback()
}

// gorp: DbMap.Begin opens a Transaction; the Select family runs its SQL
func posGorp(db *gorp.DbMap) {
	tx, _ := db.Begin()
	tx.Insert(&Order{})
	tx.Commit()
	pub() // want "OBX002"
	tx2, _ := db.Begin()
	tx2.WithContext(ctx).SelectOne(nil, "INSERT INTO orders (id) VALUES (:id) RETURNING id")
	pub() // want "OBX003"
	tx2.Rollback()
}

func negGorp(db *gorp.DbMap) {
	tx, _ := db.Begin()
	tx.Insert(&Order{})
	tx.Exec("INSERT INTO outbox (id) VALUES (:id)")
	tx.Commit()
	tx2, _ := db.Begin()
	tx2.Rollback()
}

func posGorp3(db *gorp3.DbMap) {
	tx, _ := db.Begin()
	tx.Update(&Order{})
	tx.Commit()
	pub() // want "OBX002"
	tx2, _ := db.Begin()
	tx2.Delete(&Order{})
	pub() // want "OBX003"
	tx2.Rollback()
}

func negGorp3(db *gorp3.DbMap) {
	tx, _ := db.Begin()
	tx.Update(&Order{})
	tx.Exec("INSERT INTO outbox (id) VALUES (:id)")
	tx.Commit()
	tx2, _ := db.Begin()
	tx2.Rollback()
}

func posBun(db *bun.DB) {
	db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		tx.NewInsert().Model(&Order{}).Exec(ctx)
		pub() // want "OBX003"
		return nil
	})
	tx, _ := db.BeginTx(ctx, nil)
	tx.NewUpdate().Model(&Order{}).Exec(ctx)
	tx.Commit()
	pub() // want "OBX002"
	tx2, _ := db.BeginTx(ctx, nil)
	tx2.NewUpdate().Model(&Order{}).Exec(ctx)
	pub() // want "OBX003"
	tx2.Rollback()
}

func negBun(db *bun.DB) {
	db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		tx.NewInsert().Model(&Order{}).Exec(ctx)
		return outbox.Insert(ctx, tx, outbox.Message{})
	})
	tx, _ := db.BeginTx(ctx, nil)
	tx.Rollback()
	tx.Commit()
	pub()
}

func posMongo(s mongo.Session, s2 *mongo2.Session, orders *mongo.Collection, orders2 *mongo2.Collection) {
	s.WithTransaction(ctx, func(sc mongo.SessionContext) (interface{}, error) {
		orders.InsertOne(sc, Order{})
		pub() // want "OBX003.*Mongo transaction"
		return nil, nil
	})
	s2.WithTransaction(ctx, func(ctx context.Context) (any, error) {
		return orders2.InsertOne(ctx, Order{})
	})
	pub() // want "OBX002.*change stream"
}

func negMongo(s mongo.Session, s2 *mongo2.Session, db *mongo.Database, db2 *mongo2.Database) {
	s.WithTransaction(ctx, func(sc mongo.SessionContext) (interface{}, error) {
		db.Collection("orders").InsertOne(sc, Order{})
		return db.Collection("outbox").InsertOne(sc, Order{})
	})
	s2.WithTransaction(ctx, func(ctx context.Context) (any, error) {
		db2.Collection("orders").InsertOne(ctx, Order{})
		return db2.Collection("outbox").InsertOne(ctx, Order{})
	})
}

func posFirestore(c *firestore.Client, doc *firestore.DocumentRef) {
	c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		tx.Set(doc, Order{})
		pub() // want "OBX003.*Firestore"
		return nil
	})
}

func negFirestore(c *firestore.Client, doc, ev *firestore.DocumentRef) {
	c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		tx.Set(doc, Order{})
		return tx.Create(c.Collection("outbox").Doc("1"), Order{})
	})
}

func posSpanner(c *spanner.Client) {
	c.ReadWriteTransaction(ctx, func(ctx context.Context, txn *spanner.ReadWriteTransaction) error {
		txn.BufferWrite([]*spanner.Mutation{spanner.Insert("orders", []string{"id"}, []any{"1"})})
		pub() // want "OBX003.*Spanner"
		return nil
	})
	c.ReadWriteTransactionWithOptions(ctx, func(ctx context.Context, txn *spanner.ReadWriteTransaction) error {
		_, err := txn.Update(ctx, spanner.Statement{SQL: upd})
		pub() // want "OBX003.*Spanner"
		return err
	}, spanner.TransactionOptions{})
	tx, _ := spanner.NewReadWriteStmtBasedTransaction(ctx, c)
	tx.Update(ctx, spanner.Statement{SQL: upd})
	tx.Commit(ctx)
	pub() // want "OBX002"
	tx2, _ := spanner.NewReadWriteStmtBasedTransactionWithOptions(ctx, c, spanner.TransactionOptions{})
	tx2.BufferWrite(nil)
	tx2.CommitWithReturnResp(ctx)
	pub() // want "OBX002"
	tx3, _ := spanner.NewReadWriteStmtBasedTransaction(ctx, c)
	tx3.BatchUpdate(ctx, nil)
	pub() // want "OBX003"
	tx3.Rollback(ctx)
}

func negSpanner(c *spanner.Client) {
	c.ReadWriteTransaction(ctx, func(ctx context.Context, txn *spanner.ReadWriteTransaction) error {
		return txn.BufferWrite([]*spanner.Mutation{spanner.Insert("orders", []string{"id"}, []any{"1"})})
	})
	c.ReadWriteTransactionWithOptions(ctx, func(ctx context.Context, txn *spanner.ReadWriteTransaction) error {
		_, err := txn.Update(ctx, spanner.Statement{SQL: upd})
		return err
	}, spanner.TransactionOptions{})
	tx, _ := spanner.NewReadWriteStmtBasedTransaction(ctx, c)
	tx.Update(ctx, spanner.Statement{SQL: upd})
	tx.Commit(ctx)
	tx2, _ := spanner.NewReadWriteStmtBasedTransactionWithOptions(ctx, c, spanner.TransactionOptions{})
	tx2.BufferWrite(nil)
	tx2.CommitWithReturnResp(ctx)
	tx3, _ := spanner.NewReadWriteStmtBasedTransaction(ctx, c)
	tx3.Rollback(ctx)
}

func posDatastore(c *datastore.Client, k *datastore.Key) {
	c.RunInTransaction(ctx, func(tx *datastore.Transaction) error {
		tx.Put(k, &Order{})
		pub() // want "OBX003.*Datastore"
		return nil
	})
	tx, _ := c.NewTransaction(ctx)
	tx.Put(k, &Order{})
	tx.Commit()
	pub() // want "OBX002"
	tx2, _ := c.NewTransaction(ctx)
	tx2.Delete(k)
	pub() // want "OBX003"
	tx2.Rollback()
}

func negDatastore(c *datastore.Client, k *datastore.Key) {
	c.RunInTransaction(ctx, func(tx *datastore.Transaction) error {
		_, err := tx.Put(k, &Order{})
		return err
	})
	tx, _ := c.NewTransaction(ctx)
	tx.Put(k, &Order{})
	tx.Commit()
	tx2, _ := c.NewTransaction(ctx)
	tx2.Rollback()
}

func posGoFrame(db gdb.DB, c *gdb.Core, m *gdb.Model) {
	db.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
		tx.Insert("orders", Order{})
		pub() // want "OBX003"
		return tx.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
			tx.Update("orders", Order{}, "id", 1)
			pub() // want "OBX003"
			return nil
		})
	})
	c.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
		tx.Save("orders", Order{})
		pub() // want "OBX003"
		return nil
	})
	m.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
		tx.Model("orders").Data(Order{}).Insert()
		pub() // want "OBX003"
		return nil
	})
	tx, _ := db.Begin(ctx)
	tx.Insert("orders", Order{})
	tx.Commit()
	pub() // want "OBX002"
	tx2, _ := c.Begin(ctx)
	tx2.Delete("orders", "id", 1)
	pub() // want "OBX003"
	tx2.Rollback()
	txc := &gdb.TXCore{}
	txc.Exec(upd)
	txc.Commit()
	pub() // want "OBX002"
	txc.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
		tx.Exec(upd)
		pub() // want "OBX003"
		return nil
	})
	txc.Rollback()
}

func negGoFrame(db gdb.DB, c *gdb.Core, m *gdb.Model) {
	db.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
		tx.Insert("orders", Order{})
		_, err := tx.Insert("outbox", OutboxMessage{})
		return tx.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error { return err })
	})
	c.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
		_, err := tx.Save("orders", Order{})
		return err
	})
	m.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
		_, err := tx.Model("orders").Data(Order{}).Insert()
		return err
	})
	tx, _ := db.Begin(ctx)
	tx.Insert("orders", Order{})
	tx.Commit()
	tx2, _ := c.Begin(ctx)
	tx2.Rollback()
	txc := &gdb.TXCore{}
	txc.Exec(upd)
	txc.Commit()
	txc.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error { return nil })
	txc.Rollback()
}

// A Model write inside a Transaction callback runs on the callback's
// transaction, which GoFrame carries in ctx.
func posGoFrameCtx(db gdb.DB, m *gdb.Model) {
	db.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
		m.Ctx(ctx).Data(Order{}).Insert()
		pub() // want "OBX003"
		return nil
	})
	db.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
		_, err := m.Ctx(ctx).Data(Order{}).Update()
		return err
	})
	pub() // want "OBX002"
}

func negGoFrameCtx(db gdb.DB, m *gdb.Model) {
	db.Transaction(ctx, func(ctx context.Context, tx gdb.TX) error {
		if _, err := m.Ctx(ctx).Data(Order{}).Insert(); err != nil {
			return err
		}
		_, err := tx.Model("outbox").Data(OutboxMessage{}).Insert()
		return err
	})
}

// Reads are no rows: gdb's internals (schema queries, caches) stay unread.
func negGoFrameRead(m *gdb.Model) {
	m.Ctx(ctx).Where("id", 1).All()
	pub()
}

// Cache writes are not DB writes unless configured.
func negRedisCache(rdb *redis.Client, u redis.UniversalClient) {
	rdb.Set(ctx, "order:1", "paid", time.Minute)
	rdb.HSet(ctx, "order:1", "status", "paid")
	rdb.Del(ctx, "order:1")
	rdb.SetEx(ctx, "order:1", "paid", time.Minute)
	rdb.SetNX(ctx, "order:1", "paid", time.Minute)
	rdb.Expire(ctx, "order:1", time.Minute)
	u.Set(ctx, "order:1", "paid", 0)
	u.HSet(ctx, "order:1", "status", "paid")
	u.Del(ctx, "order:1")
	rdb.Publish(ctx, "orders", "paid")
}

// Consumers that read, ack and commit offsets are not dual writes.
func negConsumers(r *kafka.Reader, g sarama.ConsumerGroup, h sarama.ConsumerGroupHandler) {
	m, _ := r.FetchMessage(ctx)
	r.CommitMessages(ctx, m)
	m, _ = r.ReadMessage(ctx)
	g.Consume(ctx, []string{"orders"}, h)
}
