// Package ioc wires the library's Kafka implementation.
package ioc

import (
	mq "github.com/ecodeclub/mq-api"
	"github.com/ecodeclub/mq-api/kafka"
)

func InitMQ() mq.MQ { return &kafka.MQ{} }
