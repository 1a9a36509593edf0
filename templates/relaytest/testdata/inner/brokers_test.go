package relaytest

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/pubsub/v2"
	"cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"cloud.google.com/go/pubsub/v2/pstest"
	"github.com/Admiral-Piett/goaws/app"
	"github.com/Admiral-Piett/goaws/app/servertest"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/nats-io/nats.go"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/redis/go-redis/v9"
	"github.com/sirupsen/logrus"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

func init() {
	// The AWS SDK needs a region and credentials, even against emulators.
	for k, v := range map[string]string{"AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test"} {
		if os.Getenv(k) == "" {
			os.Setenv(k, v)
		}
	}
	logrus.SetOutput(io.Discard) // goaws logs every request
}

// received is one message as a consumer of the broker sees it.
type received struct {
	agg     string            // key / ordering key / aggregate-id header
	dedupe  string            // the broker's own dedupe field ("" where it has none)
	body    []byte            // payload
	headers map[string]string // headers / attributes / stream fields
}

// brokerRows are the rows every broker test relays: 30 in sequence over 3
// aggregates, one with headers (traceparent), one binary payload.
func brokerRows(dest string) []row {
	rows := sequence(dest, aggregates("k", 3), 30)
	return append(rows,
		row{AggregateType: dest, AggregateID: "traced", Payload: `{"agg": "traced", "n": 1}`, EventType: "order.traced",
			Headers: map[string]string{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}},
		row{AggregateType: dest, AggregateID: "binary", Payload: `"` + base64.StdEncoding.EncodeToString([]byte{0, 1, 2, 0xfe}) + `"`,
			Headers: map[string]string{"content-transfer-encoding": "base64"}},
	)
}

// verifyDelivery checks what the consumer got against the rows: each row
// exactly once (by outbox-id), event-type, dedupe field = outbox id where
// the broker has one, headers copied, binary payload decoded (or
// base64 + content-transfer-encoding on text-only brokers), per-aggregate order.
func verifyDelivery(t *testing.T, rows []row, got []received, hasDedupe, textOnly bool) {
	t.Helper()
	byID := map[string]row{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	if len(got) != len(rows) {
		t.Fatalf("consumer got %d messages, want %d", len(got), len(rows))
	}
	var ordered []struct{ agg, body string }
	for _, m := range got {
		id := m.headers["outbox-id"]
		r, ok := byID[id]
		if !ok {
			t.Fatalf("message with unknown or repeated outbox-id %q (headers %v)", id, m.headers)
		}
		delete(byID, id)
		if m.headers["event-type"] != r.EventType || m.agg != r.AggregateID {
			t.Fatalf("message %s: key %q event-type %q; want %q, %q", id, m.agg, m.headers["event-type"], r.AggregateID, r.EventType)
		}
		if hasDedupe && m.dedupe != id {
			t.Fatalf("message %s: broker dedupe id %q, want the outbox id", id, m.dedupe)
		}
		switch r.AggregateID {
		case "traced":
			if m.headers["traceparent"] != r.Headers["traceparent"] {
				t.Fatalf("traceparent not copied: %v", m.headers)
			}
		case "binary":
			want := []byte{0, 1, 2, 0xfe}
			body := m.body
			if textOnly {
				if m.headers["content-transfer-encoding"] != "base64" {
					t.Fatalf("binary payload on a text-only broker: headers %v", m.headers)
				}
				var err error
				if body, err = base64.StdEncoding.DecodeString(string(m.body)); err != nil {
					t.Fatal(err)
				}
			} else if m.headers["content-transfer-encoding"] != "" {
				t.Fatalf("content-transfer-encoding not dropped: %v", m.headers)
			}
			if string(body) != string(want) {
				t.Fatalf("binary payload %x, want %x", body, want)
			}
		default:
			ordered = append(ordered, struct{ agg, body string }{m.agg, string(m.body)})
		}
	}
	last := checkOrder(t, ordered)
	t.Logf("counts: rows %d, received %d, per aggregate %v", len(rows), len(got), last)
}

// relayToBroker inserts the rows, runs the case's relay with args until
// every row is published, and returns the rows.
func relayToBroker(t *testing.T, ident, dest string, args ...string) (*testDB, []row) {
	t.Helper()
	c := get(t, ident)
	d := openDB(t, c.db)
	rows := d.insert(t, brokerRows(dest)...)
	startRelay(t, c, fastFlags(d, append([]string{"--batch-size", "8"}, args...)...)...)
	eventually(t, 60*time.Second, "every row published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
	return d, rows
}

// forDatabases runs f for the broker's relay on PostgreSQL and on MariaDB
// (idents pg_<broker>, my_<broker>): the publisher is the same code, the
// claim, mark and failure paths around it are not.
func forDatabases(t *testing.T, broker string, f func(t *testing.T, ident string)) {
	for _, db := range []struct{ name, prefix string }{{"postgres", "pg_"}, {"mysql", "my_"}} {
		t.Run(db.name, func(t *testing.T) {
			if db.prefix == "my_" {
				needEnv(t, "OUTBOXIFY_MYSQL_DSN")
			}
			f(t, db.prefix+broker)
		})
	}
}

// ---- Kafka (kfake), with each client ----

func TestKafkaClients(t *testing.T) {
	for _, client := range []string{"kafkago", "franzgo", "sarama"} {
		t.Run(client, func(t *testing.T) { forDatabases(t, client, testKafkaClient) })
	}
}

func testKafkaClient(t *testing.T, ident string) {
	topic := randName("orders")
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, topic))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	addrs := cluster.ListenAddrs()
	_, rows := relayToBroker(t, ident, topic, "--broker-url", strings.Join(addrs, ","))

	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var got []received
	partitionOf := map[string]int32{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for len(got) < len(rows) && ctx.Err() == nil {
		fetches := cl.PollFetches(ctx)
		fetches.EachRecord(func(r *kgo.Record) {
			h := map[string]string{}
			for _, kv := range r.Headers {
				h[kv.Key] = string(kv.Value)
			}
			key := string(r.Key)
			if p, ok := partitionOf[key]; ok && p != r.Partition {
				t.Errorf("key %s in partitions %d and %d", key, p, r.Partition)
			}
			partitionOf[key] = r.Partition
			got = append(got, received{agg: key, body: r.Value, headers: h})
		})
	}
	// Per-key order holds within a partition; order the consumer's
	// view by partition offset (records of one key share a partition).
	verifyDelivery(t, rows, got, false, false)
}

// TestKafkaPoisonMessage runs each Kafka client against a broker whose
// message.max.bytes is below one 4 KiB message: that message is rejected
// (MESSAGE_TOO_LARGE, a broker error code, not an outage) and dead-lettered
// after --max-attempts; the messages the broker refused only because they
// shared its produce batch use no attempt, and every other message flows.
func TestKafkaPoisonMessage(t *testing.T) {
	for _, client := range []string{"kafkago", "franzgo", "sarama"} {
		t.Run(client, func(t *testing.T) { forDatabases(t, client, testKafkaPoisonMessage) })
	}
}

func testKafkaPoisonMessage(t *testing.T, ident string) {
	c := get(t, ident)
	topic := randName("poison")
	// One partition: every aggregate shares the poison's produce batches.
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, topic),
		kfake.BrokerConfigs(map[string]string{"message.max.bytes": "2048"}))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	d := openDB(t, c.db)
	var rows []row
	for n := 1; n <= 3; n++ {
		for a := 0; a < 6; a++ {
			agg := fmt.Sprintf("k-%d", a)
			payload := fmt.Sprintf(`{"agg": %q, "n": %d}`, agg, n)
			if a == 0 && n == 2 {
				pad := make([]byte, 3072) // random: franz-go compresses batches
				_, _ = rand.Read(pad)
				payload = fmt.Sprintf(`{"agg": %q, "n": %d, "pad": %q}`, agg, n, base64.StdEncoding.EncodeToString(pad))
			}
			rows = append(rows, row{AggregateType: topic, AggregateID: agg, Payload: payload})
		}
	}
	rows = d.insert(t, rows...)
	poison := rows[6].ID
	startRelay(t, c, fastFlags(d, "--broker-url", strings.Join(cluster.ListenAddrs(), ","), "--batch-size", "100",
		"--max-attempts", "3", "--on-dead-letter", "skip")...)
	eventually(t, 60*time.Second, "the poison message dead-lettered and the rest published", func() bool {
		return d.state(t, poison).dead && d.count(t, "published_at IS NULL AND dead_at IS NULL") == 0
	})
	if s := d.state(t, poison); s.attempts != 3 || !strings.Contains(strings.ToLower(strings.ReplaceAll(s.lastError, "_", " ")), "too large") {
		t.Fatalf("dead letter: %+v, want 3 attempts and the broker's message-too-large error", s)
	}
	if n := d.count(t, "dead_at IS NOT NULL"); n != 1 {
		t.Fatalf("%d messages dead-lettered, want only the poison message", n)
	}
	if n := d.count(t, "attempts > 0 AND id <> $1", poison); n != 0 {
		t.Fatalf("%d messages the broker accepts alone used attempts", n)
	}
}

// ---- NATS core ----

func TestNATSCore(t *testing.T) { forDatabases(t, "nats", testNATSCore) }

func testNATSCore(t *testing.T, ident string) {
	u := needEnv(t, "OUTBOXIFY_NATS_URL")
	nc, err := nats.Connect(u)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	subject := randName("relay") + ".orders"
	sub, err := nc.SubscribeSync(subject)
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	_, rows := relayToBroker(t, ident, subject, "--broker-url", u)
	var got []received
	for len(got) < len(rows) {
		m, err := sub.NextMsg(10 * time.Second)
		if err != nil {
			t.Fatalf("after %d messages: %v", len(got), err)
		}
		h := map[string]string{}
		for k := range m.Header {
			h[k] = m.Header.Get(k)
		}
		got = append(got, received{agg: h["aggregate-id"], dedupe: h["Nats-Msg-Id"], body: m.Data, headers: h})
	}
	verifyDelivery(t, rows, got, true, false)
}

// ---- RabbitMQ ----

func TestAMQP(t *testing.T) { forDatabases(t, "amqp091", testAMQP) }

func testAMQP(t *testing.T, ident string) {
	u := needEnv(t, "OUTBOXIFY_AMQP_URL")
	conn, err := amqp.Dial(u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	exchange, queue := randName("relay_x"), randName("relay_q")
	if err := ch.ExchangeDeclare(exchange, "direct", false, true, false, false, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ch.QueueDeclare(queue, false, true, false, false, nil); err != nil {
		t.Fatal(err)
	}
	if err := ch.QueueBind(queue, "orders.created", exchange, false, nil); err != nil {
		t.Fatal(err)
	}
	d, rows := relayToBroker(t, ident, exchange+"/orders.created", "--broker-url", u, "--max-attempts", "1")
	// Default exchange: routing key = aggregate_type = the queue name.
	more := d.insert(t, row{AggregateType: queue, AggregateID: "k-0", Payload: `{"agg": "k-0", "n": 11}`})
	// Unroutable (mandatory): a rejection, dead-lettered at --max-attempts 1.
	lost := d.insert(t, row{AggregateType: exchange + "/nobody.listens", AggregateID: "z", Payload: `{}`})[0]
	eventually(t, 30*time.Second, "unroutable message dead-lettered", func() bool { return d.state(t, lost.ID).dead })
	if s := d.state(t, lost.ID); !strings.Contains(s.lastError, "unroutable") {
		t.Fatalf("unroutable message: %+v", s)
	}
	eventually(t, 30*time.Second, "default-exchange message published", func() bool { return d.state(t, more[0].ID).published })
	rows = append(rows, more...)

	// A routing key with slashes on the default exchange (FluxMQ's
	// "$queue/events/..." topics): fix writes aggregate_type "/" + key, and
	// the empty exchange before the first "/" keeps the key whole.
	slashQueue := "$queue/events/" + randName("s")
	if _, err := ch.QueueDeclare(slashQueue, false, true, false, false, nil); err != nil {
		t.Fatal(err)
	}
	slash := d.insert(t, row{AggregateType: "/" + slashQueue, AggregateID: "s-0", Payload: `{"agg": "s-0"}`})[0]
	eventually(t, 30*time.Second, "slash routing key published", func() bool { return d.state(t, slash.ID).published })
	var sm amqp.Delivery
	eventually(t, 30*time.Second, "slash routing key delivered to its queue", func() bool {
		m, ok, err := ch.Get(slashQueue, true)
		if err != nil {
			t.Fatal(err)
		}
		sm = m
		return ok
	})
	if string(sm.Body) != `{"agg": "s-0"}` || sm.RoutingKey != slashQueue || sm.Exchange != "" {
		t.Fatalf("slash routing key: exchange %q, routing key %q, body %s", sm.Exchange, sm.RoutingKey, sm.Body)
	}

	var got []received
	deadline := time.Now().Add(30 * time.Second)
	for len(got) < len(rows) && time.Now().Before(deadline) {
		m, ok, err := ch.Get(queue, true)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		h := map[string]string{}
		for k, v := range m.Headers {
			h[k] = fmt.Sprint(v)
		}
		if m.Type != h["event-type"] {
			t.Fatalf("AMQP Type %q, event-type header %q", m.Type, h["event-type"])
		}
		got = append(got, received{agg: h["aggregate-id"], dedupe: m.MessageId, body: m.Body, headers: h})
	}
	verifyDelivery(t, rows, got, true, false)
}

// ---- Redis streams ----

func TestRedisStreams(t *testing.T) { forDatabases(t, "redis", testRedisStreams) }

func testRedisStreams(t *testing.T, ident string) {
	addr := needEnv(t, "OUTBOXIFY_REDIS_ADDR")
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	stream := randName("relay_orders")
	defer rdb.Del(context.Background(), stream)
	_, rows := relayToBroker(t, ident, stream, "--broker-url", "redis://"+addr+"/0")
	entries, err := rdb.XRange(context.Background(), stream, "-", "+").Result()
	if err != nil {
		t.Fatal(err)
	}
	var got []received
	for _, e := range entries {
		h := map[string]string{}
		for k, v := range e.Values {
			if name, ok := strings.CutPrefix(k, "h:"); ok {
				h[name] = fmt.Sprint(v)
			}
		}
		h["outbox-id"] = fmt.Sprint(e.Values["outbox-id"])
		h["event-type"] = fmt.Sprint(e.Values["event-type"])
		got = append(got, received{agg: fmt.Sprint(e.Values["aggregate-id"]), body: []byte(fmt.Sprint(e.Values["payload"])), headers: h})
	}
	verifyDelivery(t, rows, got, false, false)
}

// TestRedisStreamFields: rows the writer stored from a service's own XAdd
// values (outbox.Message.StreamFields) become entries with exactly those
// fields (plus outbox-id), in order, trimmed by the row's MaxLen; values
// with a NUL byte (the whole payload base64-encoded) and a row whose
// fields are each base64-encoded (a value not UTF-8) arrive unaltered.
func TestRedisStreamFields(t *testing.T) { forDatabases(t, "redis", testRedisStreamFields) }

func testRedisStreamFields(t *testing.T, ident string) {
	addr := needEnv(t, "OUTBOXIFY_REDIS_ADDR")
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	stream := randName("relay_things")
	defer rdb.Del(context.Background(), stream)
	c := get(t, ident)
	d := openDB(t, c.db)
	b64 := func(ss ...string) string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = base64.StdEncoding.EncodeToString([]byte(s))
		}
		j, _ := json.Marshal(out)
		return string(j)
	}
	nul, _ := json.Marshal(base64.StdEncoding.EncodeToString([]byte(`["operation","thing.remove","note","a\u0000b"]`)))
	rows := d.insert(t,
		row{AggregateType: stream, AggregateID: "T1", EventType: "thing.create",
			Payload: `["operation","thing.create","id","T1","occurred_at","1700000000000000000"]`,
			Headers: map[string]string{"outbox-stream-fields": "1", "outbox-stream-maxlen": "~1000"}},
		row{AggregateType: stream, AggregateID: "T1", EventType: "thing.remove",
			Payload: string(nul),
			Headers: map[string]string{"outbox-stream-fields": "1", "content-transfer-encoding": "base64"}},
		row{AggregateType: stream, AggregateID: "T1", EventType: "thing.blob",
			Payload: b64("operation", "thing.blob", "blob", "\xff\x00\xfe"),
			Headers: map[string]string{"outbox-stream-fields": "base64"}},
	)
	startRelay(t, c, fastFlags(d, "--broker-url", "redis://"+addr+"/0")...)
	eventually(t, 60*time.Second, "every row published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
	entries, err := rdb.XRange(context.Background(), stream, "-", "+").Result()
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]string{
		{"outbox-id": rows[0].ID, "operation": "thing.create", "id": "T1", "occurred_at": "1700000000000000000"},
		{"outbox-id": rows[1].ID, "operation": "thing.remove", "note": "a\x00b"},
		{"outbox-id": rows[2].ID, "operation": "thing.blob", "blob": "\xff\x00\xfe"},
	}
	if len(entries) != len(want) {
		t.Fatalf("%d entries, want %d: %v", len(entries), len(want), entries)
	}
	for i, e := range entries {
		got := map[string]string{}
		for k, v := range e.Values {
			got[k] = fmt.Sprint(v)
		}
		if fmt.Sprint(got) != fmt.Sprint(want[i]) {
			t.Errorf("entry %d = %q, want %q", i, got, want[i])
		}
	}
}

// ---- MQTT (Mosquitto) ----

// TestMQTT: topic = aggregate_type, payload as stored (the binary row
// decoded), QoS from the row's mqtt-qos header (else --mqtt-qos, 1), retain
// from mqtt-retained. MQTT 3.1.1 carries no headers, so messages are matched
// to rows by payload: each row once, in order per aggregate. A row with
// mqtt-qos "7" or mqtt-retained "yes" is refused and dead-lettered (at
// --max-attempts 1), never published.
func TestMQTT(t *testing.T) { forDatabases(t, "mqtt", testMQTT) }

func testMQTT(t *testing.T, ident string) {
	url := "tcp://" + needEnv(t, "OUTBOXIFY_MQTT_ADDR")
	topic := randName("relay") + "/orders"
	// Subscribed before the relay runs (a plain MQTT topic keeps nothing
	// for later subscribers), at QoS 2 so each message arrives at the QoS
	// it was published with.
	sub := subscribeMQTT(t, url, topic, 2)
	d, rows := relayToBroker(t, ident, topic, "--broker-url", url, "--mqtt-client-id", randName("relay"), "--max-attempts", "1")
	status := topic + "/status"
	more := d.insert(t,
		row{AggregateType: topic, AggregateID: "q0", Payload: `{"agg": "q0", "n": 1}`, Headers: map[string]string{"mqtt-qos": "0"}},
		row{AggregateType: topic, AggregateID: "q2", Payload: `{"agg": "q2", "n": 1}`, Headers: map[string]string{"mqtt-qos": "2", "mqtt-retained": "false"}},
		row{AggregateType: topic, AggregateID: "q2", Payload: `{"agg": "q2", "n": 2}`, Headers: map[string]string{"mqtt-qos": "2"}},
		row{AggregateType: status, AggregateID: "s", Payload: `{"agg": "s", "n": 1}`, Headers: map[string]string{"mqtt-retained": "true"}},
	)
	bad := d.insert(t,
		row{AggregateType: topic, AggregateID: "bad-qos", Payload: `{"agg": "bad-qos", "n": 1}`, Headers: map[string]string{"mqtt-qos": "7"}},
		row{AggregateType: topic, AggregateID: "bad-retained", Payload: `{"agg": "bad-retained", "n": 1}`, Headers: map[string]string{"mqtt-retained": "yes"}},
	)
	eventually(t, 30*time.Second, "bad header rows dead-lettered, the others published", func() bool {
		return d.state(t, bad[0].ID).dead && d.state(t, bad[1].ID).dead && d.count(t, "published_at IS NULL AND dead_at IS NULL") == 0
	})
	for i, header := range []string{"mqtt-qos", "mqtt-retained"} {
		if s := d.state(t, bad[i].ID); s.published || !strings.Contains(s.lastError, header) {
			t.Fatalf("row with a bad %s header: %+v, want dead-lettered with an error naming the header", header, s)
		}
	}
	if n := d.count(t, "dead_at IS NOT NULL"); n != 2 {
		t.Fatalf("%d rows dead-lettered, want the 2 with bad headers", n)
	}

	want := append(append([]row{}, rows...), more[:3]...)
	wantQoS := map[string]byte{"q0": 0, "q2": 2}
	eventually(t, 30*time.Second, "every message on the topic", func() bool { return len(sub.messages()) >= len(want) })
	time.Sleep(300 * time.Millisecond) // anything further (a duplicate, a dead letter) arrives too
	got := sub.messages()
	if len(got) != len(want) {
		t.Fatalf("subscriber got %d messages, want %d", len(got), len(want))
	}
	byPayload := map[string]row{}
	for _, r := range want {
		key := r.Payload
		if r.AggregateID == "binary" {
			key = string([]byte{0, 1, 2, 0xfe})
		}
		byPayload[canonicalJSON(key)] = r
	}
	var ordered []struct{ agg, body string }
	for _, m := range got {
		key := canonicalJSON(string(m.Payload()))
		r, ok := byPayload[key]
		if !ok {
			t.Fatalf("message %q: not a row's payload, or a second copy (topic %s)", m.Payload(), m.Topic())
		}
		delete(byPayload, key)
		qos, ok := wantQoS[r.AggregateID]
		if !ok {
			qos = 1 // --mqtt-qos default
		}
		if m.Topic() != topic || m.Qos() != qos || m.Retained() {
			t.Fatalf("row %s (%s): topic %s QoS %d retained %v; want %s, QoS %d, not retained", r.ID, r.AggregateID, m.Topic(), m.Qos(), m.Retained(), topic, qos)
		}
		if r.AggregateID != "binary" {
			var v struct{ Agg string }
			if err := json.Unmarshal(m.Payload(), &v); err != nil {
				t.Fatalf("payload %q: %v", m.Payload(), err)
			}
			ordered = append(ordered, struct{ agg, body string }{v.Agg, string(m.Payload())})
		}
	}
	last := checkOrder(t, ordered)
	t.Logf("counts: rows %d, received %d, per aggregate %v", len(want), len(got), last)

	// The retained row: a subscriber that comes later gets it, marked retained.
	late := subscribeMQTT(t, url, status, 1)
	eventually(t, 10*time.Second, "the retained message", func() bool { return len(late.messages()) > 0 })
	if m := late.messages()[0]; !m.Retained() || canonicalJSON(string(m.Payload())) != canonicalJSON(more[3].Payload) {
		t.Fatalf("late subscriber got %q retained %v, want the retained row %s", m.Payload(), m.Retained(), more[3].Payload)
	}
	late.client.Publish(status, 1, true, []byte{}).Wait() // clears the retained message
}

// TestMQTTBrokerDownAndBack: the relay reaches Mosquitto through a proxy
// the test cuts. It starts while the broker is unreachable, relays once it
// is reachable, rides out a cut in the middle (the connection dropped, acks
// in flight lost) and uses up no attempt (--max-attempts 1 would
// dead-letter any row that counted one); the subscriber, connected to the
// broker directly, gets every row in order per aggregate.
func TestMQTTBrokerDownAndBack(t *testing.T) { forDatabases(t, "mqtt", testMQTTBrokerDownAndBack) }

func testMQTTBrokerDownAndBack(t *testing.T, ident string) {
	addr := needEnv(t, "OUTBOXIFY_MQTT_ADDR")
	c := get(t, ident)
	d := openDB(t, c.db)
	topic := randName("relay") + "/outage"
	sub := subscribeMQTT(t, "tcp://"+addr, topic, 1)
	proxy := &tcpProxy{addr: freeAddr(t), target: addr}
	t.Cleanup(proxy.stop)
	rows := sequence(topic, aggregates("o", 4), 120)
	r := startRelay(t, c, fastFlags(d, "--broker-url", "tcp://"+proxy.addr, "--mqtt-client-id", randName("relay"),
		"--max-attempts", "1", "--batch-size", "10", "--outage-retry-max", "500ms")...)
	d.insert(t, rows[:40]...)
	eventually(t, 20*time.Second, "the relay running and finding the broker unreachable", func() bool {
		out := r.out.String()
		return strings.Contains(out, "outbox relay started") && strings.Contains(out, "outbox batch failed") ||
			d.count(t, "published_at IS NOT NULL OR dead_at IS NOT NULL OR attempts > 0") > 0
	})
	if n := d.count(t, "published_at IS NOT NULL OR dead_at IS NOT NULL OR attempts > 0"); n != 0 {
		t.Fatalf("%d rows published, dead or with attempts while the broker was unreachable\n%s", n, r.out.String())
	}
	if out := r.out.String(); !strings.Contains(out, "broker unavailable") {
		t.Fatalf("the relay's batches failed, but not as broker unavailable:\n%s", out)
	}
	proxy.start(t)
	eventually(t, 30*time.Second, "the rows published once the broker is reachable", func() bool { return d.count(t, "published_at IS NULL") == 0 })
	d.insert(t, rows[40:80]...)
	proxy.stop() // likely mid-batch: the relay's connection and its acks in flight go
	d.insert(t, rows[80:]...)
	time.Sleep(time.Second)
	proxy.start(t)
	eventually(t, 30*time.Second, "every row published after the cut", func() bool { return d.count(t, "published_at IS NULL") == 0 })
	if n := d.count(t, "dead_at IS NOT NULL OR attempts > 0"); n != 0 {
		t.Fatalf("%d rows dead-lettered or with attempts used: an outage must count none\n%s", n, r.out.String())
	}
	eventually(t, 10*time.Second, "every row at the subscriber", func() bool {
		seen := map[string]bool{}
		for _, m := range sub.messages() {
			seen[string(m.Payload())] = true
		}
		return len(seen) >= len(rows)
	})
	var got []struct{ agg, body string }
	for _, m := range sub.messages() {
		var v struct{ Agg string }
		if err := json.Unmarshal(m.Payload(), &v); err != nil {
			t.Fatalf("payload %q: %v", m.Payload(), err)
		}
		got = append(got, struct{ agg, body string }{v.Agg, string(m.Payload())})
	}
	last := checkOrder(t, got)
	t.Logf("counts: rows %d, received %d (repeats are republished messages whose ack was lost), per aggregate %v", len(rows), len(got), last)
}

// tcpProxy forwards connections to target while started; stop closes the
// listener and cuts every connection, as a broker that went away.
type tcpProxy struct {
	addr, target string
	mu           sync.Mutex
	ln           net.Listener
	conns        []net.Conn
}

func (p *tcpProxy) start(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", p.target)
			if err != nil {
				client.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, client, server)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(server, client); server.Close() }()
			go func() { _, _ = io.Copy(client, server); client.Close() }()
		}
	}()
}

func (p *tcpProxy) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// mqttSub is a paho subscription collecting what arrives, in order.
type mqttSub struct {
	client mqtt.Client
	mu     sync.Mutex
	got    []mqtt.Message
}

func subscribeMQTT(t *testing.T, url, topic string, qos byte) *mqttSub {
	t.Helper()
	s := &mqttSub{}
	opts := mqtt.NewClientOptions().AddBroker(url).SetClientID(randName("sub")).SetCleanSession(true).SetOrderMatters(true)
	s.client = mqtt.NewClient(opts)
	if tok := s.client.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect to MQTT at %s: %v", url, tok.Error())
	}
	t.Cleanup(func() { s.client.Disconnect(100) })
	tok := s.client.Subscribe(topic, qos, func(_ mqtt.Client, m mqtt.Message) {
		s.mu.Lock()
		s.got = append(s.got, m)
		s.mu.Unlock()
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe to %s: %v", topic, tok.Error())
	}
	return s
}

func (s *mqttSub) messages() []mqtt.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]mqtt.Message(nil), s.got...)
}

// canonicalJSON re-encodes JSON text with sorted keys (PostgreSQL's jsonb
// reorders an object's keys); anything else is returned as it is.
func canonicalJSON(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// ---- Pub/Sub (pstest) ----

func TestPubSub(t *testing.T) { forDatabases(t, "pubsub", testPubSub) }

func testPubSub(t *testing.T, ident string) {
	srv := pstest.NewServer()
	defer srv.Close()
	ctx := context.Background()
	client, err := pubsub.NewClient(ctx, "relay-test", option.WithEndpoint(srv.Addr), option.WithoutAuthentication(),
		option.WithGRPCDialOption(grpc.WithTransportCredentials(insecure.NewCredentials())))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	topic := randName("orders")
	if _, err := client.TopicAdminClient.CreateTopic(ctx, &pubsubpb.Topic{Name: "projects/relay-test/topics/" + topic}); err != nil {
		t.Fatal(err)
	}
	_, rows := relayToBroker(t, ident, topic, "--broker-url", "relay-test", "--pubsub-emulator", srv.Addr)
	var got []received
	for _, m := range srv.Messages() {
		if !strings.HasSuffix(m.Topic, "/"+topic) {
			t.Fatalf("message on topic %s", m.Topic)
		}
		if m.OrderingKey != m.Attributes["aggregate-id"] {
			t.Fatalf("ordering key %q, aggregate-id %q", m.OrderingKey, m.Attributes["aggregate-id"])
		}
		got = append(got, received{agg: m.OrderingKey, body: m.Data, headers: m.Attributes})
	}
	verifyDelivery(t, rows, got, false, false)
}

// ---- SNS (goaws, in process) ----

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

var goawsOnce sync.Once
var goawsURL string

// TestSNS publishes through the real SDK client to goaws (SNS Query
// protocol), which delivers to a subscribed queue; the test reads goaws's
// queue and checks the SNS envelope's message and attributes.
func TestSNS(t *testing.T) { forDatabases(t, "sns", testSNS) }

func testSNS(t *testing.T, ident string) {
	goawsOnce.Do(func() {
		srv, err := servertest.New(freeAddr(t))
		if err != nil {
			t.Fatal(err)
		}
		goawsURL = srv.URL()
	})
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		t.Fatal(err)
	}
	client := sns.NewFromConfig(cfg, func(o *sns.Options) { o.BaseEndpoint = aws.String(goawsURL) })
	name := randName("orders")
	topic, err := client.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	queue := randName("orders_q")
	resp, err := http.PostForm(goawsURL, url.Values{"Action": {"CreateQueue"}, "QueueName": {queue}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, err := client.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic.TopicArn, Protocol: aws.String("sqs"),
		Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:" + queue)}); err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(topic.TopicArn)
	prefix := strings.TrimSuffix(arn, name)
	_, rows := relayToBroker(t, ident, name, "--broker-url", goawsURL, "--destination-prefix", prefix)

	app.SyncQueues.Lock()
	msgs := append([]app.Message(nil), app.SyncQueues.Queues[queue].Messages...)
	app.SyncQueues.Unlock()
	var got []received
	for _, m := range msgs {
		var env struct {
			Message           string
			MessageAttributes map[string]struct{ Type, Value string }
		}
		if err := json.Unmarshal(m.MessageBody, &env); err != nil {
			t.Fatalf("SNS envelope %s: %v", m.MessageBody, err)
		}
		h := map[string]string{}
		for k, v := range env.MessageAttributes {
			h[k] = v.Value
		}
		got = append(got, received{agg: h["aggregate-id"], body: []byte(env.Message), headers: h})
	}
	verifyDelivery(t, rows, got, false, true)
}

// ---- SQS (an in-test fake of the SQS JSON protocol) ----

// TestSQS checks the SQS publisher through the real SDK client against a
// minimal fake of SendMessageBatch (goaws v0.4.5 speaks only the Query
// protocol, which the current SDK no longer uses for SQS): FIFO group and
// deduplication ids, attributes, 10 entries per call, body text.
func TestSQS(t *testing.T) { forDatabases(t, "sqs", testSQS) }

func testSQS(t *testing.T, ident string) {
	var mu sync.Mutex
	var got []received
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Amz-Target") != "AmazonSQS.SendMessageBatch" {
			http.Error(w, "unexpected call "+r.Header.Get("X-Amz-Target"), http.StatusBadRequest)
			return
		}
		var in struct {
			QueueUrl string
			Entries  []struct {
				Id, MessageBody, MessageGroupId, MessageDeduplicationId string
				MessageAttributes                                       map[string]struct{ DataType, StringValue string }
			}
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		type ok struct{ Id, MessageId, MD5OfMessageBody string }
		var out struct{ Successful []ok }
		mu.Lock()
		calls++
		for _, e := range in.Entries {
			h := map[string]string{}
			for k, v := range e.MessageAttributes {
				h[k] = v.StringValue
			}
			if e.MessageGroupId != h["aggregate-id"] || !strings.HasSuffix(in.QueueUrl, ".fifo") {
				mu.Unlock()
				http.Error(w, "FIFO group id must be the aggregate id", http.StatusBadRequest)
				return
			}
			got = append(got, received{agg: e.MessageGroupId, dedupe: e.MessageDeduplicationId, body: []byte(e.MessageBody), headers: h})
			sum := md5.Sum([]byte(e.MessageBody))
			out.Successful = append(out.Successful, ok{e.Id, newID(), hex.EncodeToString(sum[:])})
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_ = json.NewEncoder(w).Encode(out)
	}))
	defer srv.Close()
	_, rows := relayToBroker(t, ident, "orders.fifo", "--broker-url", srv.URL, "--destination-prefix", srv.URL+"/000000000000/")
	mu.Lock()
	defer mu.Unlock()
	verifyDelivery(t, rows, got, true, true)
	if calls >= len(rows) {
		t.Fatalf("%d SendMessageBatch calls for %d messages: not batched", calls, len(rows))
	}
}
