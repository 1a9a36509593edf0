package report

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
)

var (
	eventRouter = regexp.MustCompile(`io\.debezium\.transforms\.outbox\.EventRouter`)
	// claimQuery marks a polling relay: it claims unpublished outbox rows.
	claimQuery    = regexp.MustCompile(`(?is)published_at\s+IS\s+NULL.*?FOR\s+UPDATE(\s+OF\s+[\w.]+(\s*,\s*[\w.]+)*)?\s+SKIP\s+LOCKED`)
	advisoryLock  = regexp.MustCompile(`(?i)pg_try_advisory_xact_lock|pg_try_advisory_lock|GET_LOCK\s*\(`)
	shardsInConf  = regexp.MustCompile(`(?im)^[^#\n]*?(?:--shards[= ]"?|OUTBOX_(?:RELAY_)?SHARDS\s*[=:]\s*"?|\bshards\s*:\s*"?)(\d+)`)
	shardsFlagDef = regexp.MustCompile(`"shards",\s*(\d+)`)
	// brokerKey: the relay sets the broker's key from aggregate_id.
	brokerKey = regexp.MustCompile(`(?i)\b(Key|OrderingKey|MessageGroupId|PartitionKey)\s*[:=][^\n]*\bagg(regate)?_?id`)
	// Managed CDC in the code.
	dynamoStreams = regexp.MustCompile(`"github\.com/aws/aws-sdk-go-v2/service/dynamodbstreams"`)
	mongoImport   = regexp.MustCompile(`"go\.mongodb\.org/mongo-driver(/v2)?/mongo"`)
	mongoWatch    = regexp.MustCompile(`\.Watch\(`)
	// Brokers without a message key: order comes from one relay (or shard)
	// per aggregate publishing in order.
	keylessBroker = regexp.MustCompile(`"(github\.com/nats-io/nats\.go(/jetstream)?|github\.com/rabbitmq/amqp091-go|github\.com/streadway/amqp|github\.com/redis/go-redis/v9|github\.com/eclipse/paho\.mqtt\.golang)"`)
	keyedBroker   = regexp.MustCompile(`"(github\.com/segmentio/kafka-go|github\.com/twmb/franz-go/pkg/kgo|github\.com/IBM/sarama|github\.com/Shopify/sarama|cloud\.google\.com/go/pubsub(/v2)?|github\.com/aws/aws-sdk-go-v2/service/(sqs|sns))"`)
)

// Relay modes.
const (
	RelayLeader     = "polling-leader"
	RelayShards     = "polling-shards"
	RelayDebezium   = "debezium"
	RelayManagedCDC = "managed-cdc"
	RelayUnlocked   = "polling-unlocked" // a polling relay without leader or shard locks
)

// relayInfo is what the relay detector found.
type relayInfo struct {
	Mode      string
	Shards    int
	Topics    string
	Store     string
	Dir       string     // polling relay package directory
	Evidence  []Location // claim query, lock, connector config
	Connector map[string]string
}

func (t *tree) relay(aggregateTypes []string) relayInfo {
	if m, ok := t.find(func(f string) bool { return isConfig(f) && !isGo(f) }, eventRouter); ok {
		r := relayInfo{Mode: RelayDebezium, Evidence: []Location{m.loc()}, Connector: connectorConfig(t.read(m.File))}
		repl := r.Connector["transforms.outbox.route.topic.replacement"]
		if repl == "" {
			repl = "outbox.event.${routedByValue}" // EventRouter's default
		}
		// The topics are the aggregate types the code writes, routed.
		var topics []string
		for _, a := range aggregateTypes {
			topics = append(topics, strings.ReplaceAll(repl, "${routedByValue}", a))
		}
		if len(topics) == 0 {
			topics = []string{strings.ReplaceAll(repl, "${routedByValue}", "<aggregate_type>")}
		}
		r.Topics = strings.Join(topics, ", ")
		return r
	}
	claims := t.findAll(isGo, claimQuery, 0)
	if len(claims) > 0 {
		// A hand-written relay may sit beside the generated one: prefer the
		// one that takes a lock.
		m := claims[0]
		for _, c := range claims {
			if _, ok := t.find(and(isGo, inDir(path.Dir(c.File))), advisoryLock); ok {
				m = c
				break
			}
		}
		r := relayInfo{Mode: RelayUnlocked, Dir: path.Dir(m.File), Evidence: []Location{m.loc()}}
		if l, ok := t.find(and(isGo, inDir(r.Dir)), advisoryLock); ok {
			r.Mode = RelayLeader
			r.Evidence = append(r.Evidence, l.loc())
			r.Shards = 1
			// How the relay is deployed decides the shard count: deploy
			// files first, then the flag's default in the relay main.
			if s, ok := t.find(isConfig, shardsInConf); ok {
				r.Shards, _ = strconv.Atoi(s.Groups[1])
				r.Evidence = append(r.Evidence, s.loc())
			} else if s, ok := t.find(isGo, shardsFlagDef); ok {
				r.Shards, _ = strconv.Atoi(s.Groups[1])
			}
			if r.Shards > 1 {
				r.Mode = RelayShards
			}
		}
		return r
	}
	if m, ok := t.find(isGo, dynamoStreams); ok {
		return relayInfo{Mode: RelayManagedCDC, Store: "DynamoDB Streams", Evidence: []Location{m.loc()}}
	}
	for _, m := range t.findAll(isGo, mongoImport, 0) {
		if mongoWatch.MatchString(t.read(m.File)) {
			return relayInfo{Mode: RelayManagedCDC, Store: "MongoDB change streams", Evidence: []Location{m.loc()}}
		}
	}
	return relayInfo{}
}

// connectorConfig flattens a Kafka Connect connector JSON ({"name","config":{...}}
// or a bare config object) or a .properties file into key -> value.
func connectorConfig(s string) map[string]string {
	out := map[string]string{}
	var doc map[string]any
	if json.Unmarshal([]byte(s), &doc) == nil {
		if c, ok := doc["config"].(map[string]any); ok {
			doc = c
		}
		for k, v := range doc {
			out[k] = fmt.Sprint(v)
		}
		return out
	}
	for _, line := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok && !strings.HasPrefix(k, "#") {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

// orderingKey reports whether the broker key is set from aggregate_id.
func (t *tree) orderingKey(r relayInfo) (set bool, keyless string, at Location, ok bool) {
	switch r.Mode {
	case RelayDebezium:
		k := r.Connector["transforms.outbox.table.field.event.key"]
		return k == "aggregate_id", "", r.Evidence[0], true
	case "", RelayManagedCDC:
		return false, "", Location{}, false
	}
	inRelay := and(isGo, inDir(r.Dir))
	if m, ok := t.find(inRelay, brokerKey); ok {
		return true, "", m.loc(), true
	}
	if _, ok := t.find(inRelay, keyedBroker); !ok {
		if m, ok := t.find(inRelay, keylessBroker); ok {
			return false, path.Base(m.Groups[1]), m.loc(), true
		}
	}
	return false, "", Location{File: r.Dir}, true
}

var (
	// Flags and cron lines count outside comments only: a generated
	// CronJob mentions --cleanup-every as an alternative in a comment.
	cleanupFlag    = regexp.MustCompile(`(?im)^[^#\n]*?(?:--cleanup-every[= ]"?|OUTBOX_CLEANUP_EVERY\s*[=:]\s*"?)([0-9][0-9a-z.]*)`)
	crontabLine    = regexp.MustCompile(`(?m)^\s*((?:[0-9*/,-]+\s+){4}[0-9*/,-]+)\s+\S*outbox-relay\s+cleanup\b`)
	cleanupDefault = regexp.MustCompile(`"cleanup-every",\s*(?:(\d+)\s*\*\s*)?time\.(Hour|Minute|Second)`)
	cronSchedule   = regexp.MustCompile(`(?m)^\s*schedule:\s*"?([^"\n#]+?)"?\s*(?:#.*)?$`)
	cleanupWord    = regexp.MustCompile(`(?i)cleanup`)
	// alertOldest: a Prometheus rule expression on the oldest unpublished
	// (pending) row's age with its threshold.
	alertOldest = regexp.MustCompile(`(?im)^\s*expr:\s*[|>]?\s*(.*oldest\w*(?:\{[^}]*\})?[^\n]*?>\s*=?\s*([0-9.e+]+))`)
	alertSlot   = regexp.MustCompile(`(?im)^\s*expr:\s*[|>]?\s*(.*(?:replication_slot|slot)\w*(?:\{[^}]*\})?[^\n]*?>\s*=?\s*([0-9.e+]+))`)
	replayDoc   = regexp.MustCompile(`(?im)^#+\s.*\breplay\b`)
)

// opsInfo is what the ops detectors found.
type opsInfo struct {
	Cleanup, CleanupAt        string
	Alert, AlertKind, AlertAt string
	Runbook                   string
}

func (t *tree) ops(r relayInfo) opsInfo {
	var o opsInfo
	if m, ok := t.find(isConfig, cleanupFlag); ok {
		o.Cleanup, o.CleanupAt = "every "+m.Groups[1], m.loc().String()
	} else if cj := t.cronJob(); cj != nil {
		o.Cleanup, o.CleanupAt = cronText(cj.Groups[1]), cj.loc().String()
	} else if m, ok := t.find(isConfig, crontabLine); ok {
		o.Cleanup, o.CleanupAt = cronText(m.Groups[1]), m.loc().String()
	} else if m, ok := t.find(isGo, cleanupDefault); ok {
		n := m.Groups[1]
		if n == "" {
			n = "1"
		}
		o.Cleanup, o.CleanupAt = "every "+n+strings.ToLower(m.Groups[2][:1]), m.loc().String()
	}
	rules := func(f string) bool { return isYAML(f) && strings.Contains(t.read(f), "alert:") }
	re, kind := alertOldest, "oldest-unpublished"
	if r.Mode == RelayDebezium {
		re, kind = alertSlot, "replication-slot-lag"
	}
	if m, ok := t.find(rules, re); ok {
		o.Alert, o.AlertKind, o.AlertAt = threshold(m.Groups[1], m.Groups[2]), kind, m.loc().String()
	}
	var docs []string
	for _, f := range t.files {
		if isMarkdown(f) && replayDoc.MatchString(t.read(f)) && strings.Contains(strings.ToLower(t.read(f)), "outbox") {
			docs = append(docs, f)
		}
	}
	// Prefer the runbook outboxify generates (OUTBOX.md) over any other doc.
	for _, f := range docs {
		if strings.EqualFold(path.Base(f), "OUTBOX.md") {
			o.Runbook = f
		}
	}
	if o.Runbook == "" && len(docs) > 0 {
		o.Runbook = docs[0]
	}
	return o
}

// cronJob finds a schedule in a config file that is about cleanup.
func (t *tree) cronJob() *match {
	for _, m := range t.findAll(isYAML, cronSchedule, 0) {
		if cleanupWord.MatchString(t.read(m.File)) {
			return &m
		}
	}
	return nil
}

// threshold renders an alert threshold with the unit its metric implies.
func threshold(expr, value string) string {
	v, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return value
	}
	e := strings.ToLower(expr)
	switch {
	case strings.Contains(e, "bytes"):
		units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
		i := 0
		for v >= 1024 && i < len(units)-1 {
			v /= 1024
			i++
		}
		return strconv.FormatFloat(v, 'f', -1, 64) + " " + units[i]
	case strings.Contains(e, "seconds") || strings.Contains(e, "age"):
		return strconv.FormatFloat(v, 'f', -1, 64) + " s"
	}
	return value
}

// cronText names common cron schedules: "17 * * * *" -> "hourly (cron 17 * * * *)".
func cronText(expr string) string {
	f := strings.Fields(expr)
	num := func(s string) bool { _, err := strconv.Atoi(s); return err == nil }
	name := ""
	if len(f) == 5 && num(f[0]) {
		switch {
		case f[1] == "*" && f[2] == "*" && f[3] == "*" && f[4] == "*":
			name = "hourly"
		case strings.HasPrefix(f[1], "*/") && f[2] == "*" && f[3] == "*" && f[4] == "*":
			name = "every " + strings.TrimPrefix(f[1], "*/") + "h"
		case num(f[1]) && f[2] == "*" && f[3] == "*" && f[4] == "*":
			name = "daily"
		case num(f[1]) && f[2] == "*" && f[3] == "*" && num(f[4]):
			name = "weekly"
		}
	} else if len(f) == 5 && strings.HasPrefix(f[0], "*/") && f[1] == "*" && f[2] == "*" && f[3] == "*" && f[4] == "*" {
		name = "every " + strings.TrimPrefix(f[0], "*/") + "m"
	}
	if name == "" {
		return "cron " + strings.Join(f, " ")
	}
	return name + " (cron " + strings.Join(f, " ") + ")"
}
