package configured

import "github.com/nats-io/nats.go"

// Store is the team's own key-value store: a writer only by configuration.
type Store struct{}

func (s *Store) Put(key string, v []byte) error { return nil }

// Notifier calls a partner API: external only by configuration.
type Notifier struct{}

func (n *Notifier) Notify(body []byte, key string) error { return nil }

func subscribe(nc *nats.Conn, s *Store, n *Notifier) {
	_, _ = nc.Subscribe("a", func(m *nats.Msg) { // want `writes to the database without the inbox`
		_ = s.Put(m.Subject, m.Data)
	})
	_, _ = nc.Subscribe("b", func(m *nats.Msg) { // want `calls external API configured.Notifier.Notify`
		_ = n.Notify(m.Data, "")
	})
	_, _ = nc.Subscribe("c", func(m *nats.Msg) {
		_ = n.Notify(m.Data, m.Header.Get("outbox-id"))
	})
}
