// Package usecase has a webhook gateway's message intake: the message is
// saved through a repository interface, then announced through a publisher
// the infrastructure's stream hands out (its implementation publishes in a
// worker pool it waits for).
package usecase

import (
	"context"

	"gorm.io/gorm"

	"shapes/product/poolpub/streaming"
)

type Message struct {
	ID   string
	Body []byte
}

type MessageRepo interface {
	Save(ctx context.Context, msgs []*Message) error
}

type Repos interface {
	Message() MessageRepo
}

type Infra interface {
	Streaming() streaming.Stream
}

type sqlmsg struct{ db *gorm.DB }

func (r *sqlmsg) Save(ctx context.Context, msgs []*Message) error {
	return r.db.WithContext(ctx).Create(&msgs).Error
}

type repos struct{ db *gorm.DB }

func (r *repos) Message() MessageRepo { return &sqlmsg{db: r.db} }

func NewRepos(db *gorm.DB) Repos { return &repos{db: db} }

type MessageUsecase struct {
	repos Repos
	infra Infra
}

// Create is a dual write (CLI only: OBX001): the insert commits on its own, then the
// event goes out through streaming.Publisher to the pool's goroutines.
func (uc *MessageUsecase) Create(ctx context.Context, msg *Message) error {
	if err := uc.repos.Message().Save(ctx, []*Message{msg}); err != nil {
		return err
	}
	pub, err := uc.infra.Streaming().Publisher("message")
	if err != nil {
		return err
	}
	errs := pub.Pub(ctx, map[string]*streaming.Event{msg.ID: {ID: msg.ID, Subject: "message.create", Data: msg.Body}})
	if len(errs) > 0 {
		return errs[msg.ID]
	}
	return nil
}
