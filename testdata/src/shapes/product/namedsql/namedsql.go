// Package namedsql has a registry's DAO shape: the SQL text is put together
// from constant parts and a clause picked at run time, its named parameters
// are bound by the database handle (sqlx BindNamed), and the statement runs
// through QueryRowContext (INSERT ... RETURNING id). The text is still an
// INSERT: the service that saves an image and then announces it writes
// twice. A SELECT built the same way is a read, and a statement whose
// table name is the unknown part says nothing.
package namedsql

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/nats-io/nats.go"
)

type Image struct {
	ID   int64
	Name string
	Type *string
}

type ImageDao struct {
	db *sqlx.DB
}

func (i ImageDao) CreateOrUpdate(ctx context.Context, image *Image) error {
	var conflict string
	if image.Type == nil {
		conflict = ` ON CONFLICT (image_name) WHERE image_type IS NULL `
	} else {
		conflict = ` ON CONFLICT (image_name, image_type) WHERE image_type IS NOT NULL `
	}
	var sqlQuery = `
		INSERT INTO images (image_name, image_type) VALUES (:image_name, :image_type)
		` + conflict + `
		DO UPDATE SET image_enabled = true
		RETURNING image_id`
	query, args, err := i.db.BindNamed(sqlQuery, image)
	if err != nil {
		return err
	}
	return i.db.QueryRowContext(ctx, query, args...).Scan(&image.ID)
}

func (i ImageDao) FindByName(ctx context.Context, name string, deleted bool) (*Image, error) {
	filter := ` AND image_deleted_at IS NULL`
	if deleted {
		filter = ` AND image_deleted_at IS NOT NULL`
	}
	sqlQuery := `SELECT image_id, image_name FROM images WHERE image_name = :name` + filter
	query, args, err := i.db.BindNamed(sqlQuery, map[string]any{"name": name})
	if err != nil {
		return nil, err
	}
	img := &Image{}
	return img, i.db.QueryRowContext(ctx, query, args...).Scan(&img.ID, &img.Name)
}

// Claim updates a table the caller names: an outbox or not, unknown.
func (i ImageDao) Claim(ctx context.Context, table string, id int64) error {
	query := `UPDATE ` + table + ` SET claimed = true WHERE id = $1 RETURNING id`
	return i.db.QueryRowContext(ctx, query, id).Scan(&id)
}

type Service struct {
	Images ImageDao
	NC     *nats.Conn
}

func (s *Service) Push(ctx context.Context, image *Image) error {
	if err := s.Images.CreateOrUpdate(ctx, image); err != nil {
		return err
	}
	return s.NC.Publish("artifact.created", []byte(image.Name)) // want "OBX001"
}

func (s *Service) Announce(ctx context.Context, name string) error {
	img, err := s.Images.FindByName(ctx, name, false)
	if err != nil {
		return err
	}
	return s.NC.Publish("artifact.seen", []byte(img.Name))
}

func (s *Service) Hand(ctx context.Context, table string, id int64) error {
	if err := s.Images.Claim(ctx, table, id); err != nil {
		return err
	}
	return s.NC.Publish("claimed", nil)
}

var _ = sql.ErrNoRows

// WaitForDB is a start-up wait loop: the statement it runs is `;` or a
// SELECT picked by configuration (one built with Sprintf), never a write,
// so the announcement after it pairs with nothing.
func (s *Service) WaitForDB(db *sql.DB, mode string, version int) error {
	var query string
	switch mode {
	case "empty":
		query = ";"
	case "full":
		query = fmt.Sprintf("SELECT 1/count(*) FROM schema_migrations WHERE version = %d", version)
	default:
		query = "SELECT * FROM schema_migrations"
	}
	if _, err := db.Exec(query); err != nil {
		return err
	}
	return s.NC.Publish("db.ready", []byte(mode))
}

// Mark runs a statement picked the same way, but one of the choices
// writes: the statement is unknown, so it counts as a write.
func (s *Service) Mark(db *sql.DB, mode string, id int64) error {
	query := "SELECT 1"
	if mode == "done" {
		query = fmt.Sprintf("UPDATE images SET done = true WHERE image_id = %d", id)
	}
	if _, err := db.Exec(query); err != nil {
		return err
	}
	return s.NC.Publish("image.marked", []byte(mode)) // want "OBX001"
}
