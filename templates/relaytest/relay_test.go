package relaytest

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
	"text/template"

	"github.com/outboxify/outboxify/internal/testenv"
	"github.com/outboxify/outboxify/templates"
)

// casesTemplate registers every rendered relay package with the inner
// tests: its Main, and an adapter that runs it with the tests' fake publisher.
var casesTemplate = template.Must(template.New("cases").Parse(`package relaytest

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5/pgxpool"
{{range .Cases}}
	{{.Ident}} "{{$.Module}}/{{.Dir}}/outboxrelay"{{end}}
)

func init() {
{{- range .Cases}}
	register(relayCase{
		ident: "{{.Ident}}", db: "{{.DB}}", broker: "{{.Broker}}",
		main: {{.Ident}}.Main,
		isUnavailable: {{.Ident}}.IsUnavailable,
		runFake: func(ctx context.Context, dbURL string, pub publishFunc, o fakeOptions) error {
			db, err := {{.Ident}}.Open(ctx, dbURL, 4)
			if err != nil {
				return err
			}
			defer db.Close()
			return runFake_{{.Ident}}(ctx, db, pub, o)
		},
		runFakeOn: func(ctx context.Context, handle any, pub publishFunc, o fakeOptions) error {
{{- if eq .DB "postgres"}}
			return runFake_{{.Ident}}(ctx, {{.Ident}}.FromPool(handle.(*pgxpool.Pool)), pub, o)
{{- else}}
			return runFake_{{.Ident}}(ctx, {{.Ident}}.FromSQL(handle.(*sql.DB)), pub, o)
{{- end}}
		},
	})
{{- end}}
}

// The handle types of runFakeOn (a pgx pool, a database/sql handle), used
// whichever databases the cases have.
var (
	_ *pgxpool.Pool
	_ *sql.DB
)
{{range .Cases}}
func runFake_{{.Ident}}(ctx context.Context, db *{{.Ident}}.DB, pub publishFunc, o fakeOptions) error {
	r, err := {{.Ident}}.New(db, fake_{{.Ident}}{pub}, {{.Ident}}.Options{BatchSize: o.BatchSize, Shards: o.Shards, Pipeline: o.Pipeline,
		PollInterval: o.PollInterval, MaxAttempts: o.MaxAttempts, RetryBase: o.RetryBase, RetryMax: o.RetryMax, OutageRetryMax: o.OutageRetryMax,
		OnDeadLetter: o.OnDeadLetter, ShutdownTimeout: o.ShutdownTimeout, PublishTimeout: o.PublishTimeout, Failover: o.Failover, Notify: "off",
		Logger: quietLogger()})
	if err != nil {
		return err
	}
	return r.Run(ctx)
}
{{end}}
{{range .Cases}}
type fake_{{.Ident}} struct{ f publishFunc }

func (p fake_{{.Ident}}) Publish(ctx context.Context, msgs []*{{.Ident}}.Message) []error {
	in := make([]*Msg, len(msgs))
	for i, m := range msgs {
		in[i] = &Msg{ID: m.ID, Seq: m.Seq, AggregateType: m.AggregateType, AggregateID: m.AggregateID,
			EventType: m.EventType, Payload: m.Payload, Headers: m.Headers, Attempts: m.Attempts}
	}
	errs := p.f(ctx, in)
	for i, err := range errs {
		var u unavailable
		if errors.As(err, &u) {
			errs[i] = {{.Ident}}.Unavailable(err)
		}
	}
	return errs
}

func (fake_{{.Ident}}) Close() error { return nil }
{{end}}`))

// innerModule renders the relays, the inner tests and the generated
// migrations (applied by the inner tests) into one file map.
func innerModule(t *testing.T, cases []Case) map[string][]byte {
	t.Helper()
	files, err := RenderCases(cases)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := casesTemplate.Execute(&b, map[string]any{"Module": ModulePath, "Cases": cases}); err != nil {
		t.Fatal(err)
	}
	files["relaytest/cases_test.go"] = b.Bytes()
	inner := os.DirFS("testdata/inner")
	err = fs.WalkDir(inner, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(inner, p)
		files["relaytest/"+p] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, db := range []string{"postgres", "mysql"} {
		out, err := templates.Render(templates.Config{Module: ModulePath, DB: db, Migrations: "sql"}, "migrations")
		if err != nil {
			t.Fatal(err)
		}
		var up []byte
		for _, f := range out {
			if strings.HasSuffix(f.Path, ".sql") && !strings.HasSuffix(f.Path, ".down.sql") {
				up = append(up, f.Content...)
			}
		}
		if len(up) == 0 {
			t.Fatalf("no %s up migration rendered (files %v)", db, out)
		}
		files["relaytest/testdata/schema_"+db+".sql"] = up
	}
	return files
}

// serverEnv checks each server and returns the environment the inner tests
// read; a missing server fails under CI=true and is left out otherwise (its
// inner tests skip, saying so).
func serverEnv(t *testing.T) []string {
	t.Helper()
	var env []string
	for _, s := range []testenv.Service{testenv.Postgres, testenv.MySQL, testenv.NATS, testenv.RabbitMQ, testenv.Redis, testenv.Mosquitto} {
		up := false // Require skips (Goexit) or fails when the server does not answer
		t.Run("server "+s.Name, func(t *testing.T) { testenv.Require(t, s); up = true })
		if up {
			env = append(env, s.Env+"="+s.Addr())
		}
	}
	return env
}

// TestGeneratedRelay renders the relays into one module and runs the inner
// tests (testdata/inner) there: one build, real servers.
// OUTBOXIFY_RELAY_RUN passes -run to the inner go test.
func TestGeneratedRelay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generated relay against the servers")
	}
	env := serverEnv(t)
	dir := keepOrTemp(t, innerModule(t, AllCases()))
	args := []string{"test", "-count=1", "-timeout=12m", "-v"}
	if run := os.Getenv("OUTBOXIFY_RELAY_RUN"); run != "" {
		args = append(args, "-run", run)
	}
	args = append(args, "./relaytest/")
	// Only servers that answered reach the inner tests (they skip the rest).
	var cmdEnv []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case testenv.Postgres.Env, testenv.MySQL.Env, testenv.NATS.Env, testenv.RabbitMQ.Env, testenv.Redis.Env, testenv.Mosquitto.Env:
			continue
		}
		cmdEnv = append(cmdEnv, kv)
	}
	cmdEnv = append(cmdEnv, env...)
	out, err := goIn(dir, cmdEnv, args...)
	summary := summarize(out)
	if err != nil {
		t.Fatalf("inner tests failed: %v\n%s", err, out)
	}
	t.Logf("inner tests (%s):\n%s", path.Join(dir, "relaytest"), summary)
}
