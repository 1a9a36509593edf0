package dualwrite_test

import (
	"fmt"
	"os"
	"sort"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// loadFixtures loads fixture packages the way the CLI does: whole program, with syntax.
func loadFixtures(t testing.TB, patterns ...string) []*packages.Package {
	return load(t, false, patterns...)
}

func loadTestFixtures(t testing.TB, patterns ...string) []*packages.Package {
	return load(t, true, patterns...)
}

func load(t testing.TB, tests bool, patterns ...string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax,
		Tests: tests,
		Dir:   testdata + "/src",
		Env:   append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOFLAGS=", "GOPROXY=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("fixtures do not load")
	}
	return pkgs
}

func findings(t *testing.T, a *analysis.Analyzer, pkgs []*packages.Package) map[string]dualwrite.Finding {
	t.Helper()
	g, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]dualwrite.Finding{}
	for act := range g.All() {
		if act.Analyzer != a || !act.IsRoot {
			continue
		}
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		for _, f := range act.Result.(*dualwrite.Result).Findings {
			out[fmt.Sprintf("%s:%d %s", f.Publish.Position.Filename, f.Publish.Position.Line, f.Rule)] = f
		}
	}
	return out
}

// TestResolver checks the CLI's analyzer (with a ProgramResolver) reports
// everything the per-package analyzer (go vet) does, plus exactly the
// findings that needed an interface resolved to its implementations.
func TestResolver(t *testing.T) {
	pkgs := loadFixtures(t, "shapes/...")
	vet := findings(t, dualwrite.Analyzer, pkgs)
	cli := findings(t, dualwrite.NewAnalyzer(dualwrite.Options{Resolver: dualwrite.ProgramResolver(pkgs, nil)}), pkgs)

	for k := range vet {
		if _, ok := cli[k]; !ok {
			t.Errorf("vet finding missing from the CLI: %s", k)
		}
	}
	var extra []string
	for k, f := range cli {
		if _, ok := vet[k]; ok {
			continue
		}
		extra = append(extra, k)
		if !f.Publish.ViaInterface && !(f.Write != nil && f.Write.ViaInterface) {
			t.Errorf("CLI-only finding %s did not go through an interface: %+v", k, f)
		}
	}
	sort.Strings(extra)
	if len(extra) != 27 {
		t.Errorf("CLI-only findings %v; want those of shapes/product/poolpub/usecase MessageUsecase.Create, shapes/orders/app Handler.Handle, shapes/product/middleware eventStore.Register, shapes/product/ddd/app Orders.Place, shapes/product/queuetwin Tasks.Fail, shapes/product/redisqueue/api API.DeleteWorkflow, shapes/product/broadcast/app Service.Archive and Service.Copy (not Service.Rename), shapes/product/genericqueue Step.Process and shapes/product/composite Composite.Update and Poller.Poll, shapes/product/mqlib UserService.CreateWithPhone and CaseService.Save, shapes/product/funcfield Handler.UpdateResource, shapes/product/chanemit Service.CreateCollection, Chain.AddBlock and Validator.Validate (not Indexer.Poll), shapes/product/stagefeed withdrawStore.Update (not reviewStore.Update), shapes/product/ginaudit ActivityLog and Notify (not Timing), shapes/product/auditsink handler.PutResource, shapes/product/funcparam HandleMarkPublished's handler, Store.PublishInTx and Store.handleOperation (not Service.Meter, Store.SaveThen, HandleTouch, or Withdrawals.Succeed twice), shapes/product/genericport Customers.Register, shapes/product/typedbus Wallet.saveLog and Wallet.Adjust (not Init or Wallet.LevelUp)", extra)
	}
	for _, k := range extra {
		f := cli[k]
		t.Logf("interface-resolved: %s %s", k, f.Message)
		switch f.Func {
		case "(*shapes/orders/app.Handler).Handle":
			if f.Rule != dualwrite.RuleAfterWrite || len(f.Publish.Via) < 2 || f.Publish.Via[0] != "(shapes/orders/domain.EventPublisher).Emit" {
				t.Errorf("finding %s: want OBX001 with Via through domain.EventPublisher, got %s via %v", k, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/middleware.eventStore).Register":
			// three interface hops to the write, the SQL given by the
			// repository to a DB wrapper, the middleware wrapping the
			// interface it implements
			// (through the logging middleware or not: both are paths)
			want := []string{"(shapes/product/middleware.Repository).Save", "(*shapes/product/middleware.repo).Save",
				"(shapes/product/middleware.Database).QueryRowContext", "(*shapes/product/middleware.tracingDB).QueryRowContext"}
			if f.Rule != dualwrite.RuleAfterWrite || f.Write == nil || len(f.Write.Via) < len(want) ||
				fmt.Sprint(f.Write.Via[len(f.Write.Via)-len(want):]) != fmt.Sprint(want) || hasRepeat(f.Write.Via) {
				t.Errorf("finding %s: want OBX001 with an acyclic write chain ending %v, got %s via %v", k, want, f.Rule, f.Write)
			}
		case "(*shapes/product/ddd/app.Orders).Place":
			// the dispatcher's handler is registered in package wiring:
			// vet sees one package and its imports, the CLI the program
			if f.Rule != dualwrite.RuleAfterWrite || len(f.Publish.Via) < 2 || f.Publish.Via[0] != "(*shapes/product/ddd/domain.Dispatcher).Publish" {
				t.Errorf("finding %s: want OBX001 with the publish via the dispatcher, got %s via %v", k, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/queuetwin.Tasks).Fail":
			// the queue's RabbitMQ backend publishes; its Postgres twin's
			// table insert is not the partner (PubTenantMessage: none)
			if f.Rule != dualwrite.RuleAfterWrite || len(f.Publish.Via) < 1 || f.Publish.Via[0] != "(shapes/product/queuetwin.MessageQueue).SendMessage" {
				t.Errorf("finding %s: want OBX001 with the publish via MessageQueue.SendMessage, got %s via %v", k, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/redisqueue/api.API).DeleteWorkflow":
			// a Redis list its own package pops is a work queue: the push
			// behind the store interface is the publish
			if f.Rule != dualwrite.RuleAfterWrite || len(f.Publish.Via) < 2 || f.Publish.Via[0] != "(shapes/product/redisqueue/cache.Store).Enqueue" {
				t.Errorf("finding %s: want OBX001 with the publish via cache.Store.Enqueue, got %s via %v", k, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/broadcast/app.Service).Archive", "(*shapes/product/broadcast/app.Service).Copy":
			// the notifier's and the replica's subscribers hand the message
			// on (a client's channel, a table): their broadcasts are
			// publishes; the evictor's (Service.Rename) only drop cache
			// keys on every replica and are not
			if f.Rule != dualwrite.RuleAfterWrite || len(f.Publish.Via) < 2 || f.Publish.Via[1] != "(shapes/product/broadcast/pubsub.PubSub).Publish" {
				t.Errorf("finding %s: want OBX001 with the publish via pubsub.PubSub.Publish, got %s via %v", k, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/genericqueue.Step).Process":
			// a generic interface: its generic implementation, instantiated
			// with the interface's type argument, publishes
			if f.Rule != dualwrite.RuleAfterWrite || len(f.Publish.Via) < 2 || f.Publish.Via[0] != "(shapes/product/genericqueue.Enqueuer[shapes/product/genericqueue.Job]).Enqueue" {
				t.Errorf("finding %s: want OBX001 with the publish via Enqueuer.Enqueue, got %s via %v", k, f.Rule, f.Publish.Via)
			}
		case "(shapes/product/composite.Composite).Update":
			// one call on each listener of a slice: the database
			// implementation writes, the broker one publishes
			if f.Rule != dualwrite.RuleAfterWrite || f.Write == nil || f.Write.Position.Line != f.Publish.Position.Line {
				t.Errorf("finding %s: want OBX001 pairing the loop's one call with itself, got %s, write %+v", k, f.Rule, f.Write)
			}
		case "(*shapes/product/composite.Poller).Poll":
			// the updater's writer and publisher run together (a composite
			// implements it): its write is the partner of the direct publish
			if f.Rule != dualwrite.RuleAfterWrite || f.Write == nil || len(f.Write.Via) < 1 || f.Write.Via[0] != "(shapes/product/composite.Updater).Update" {
				t.Errorf("finding %s: want OBX001 after the write via Updater.Update, got %s, write %+v", k, f.Rule, f.Write)
			}
		case "(*shapes/product/mqlib.UserService).CreateWithPhone":
			// a plain per-event interface, implemented by a generic typed
			// producer the program instantiates with the event type, over
			// a library interface whose Kafka implementation publishes
			want := []string{"(shapes/product/mqlib/event.RegistrationEventProducer).Produce", "(*shapes/product/mqlib/mqx.GeneralProducer[T]).Produce", "(github.com/ecodeclub/mq-api.Producer).Produce"}
			if f.Rule != dualwrite.RuleAfterWrite || len(f.Publish.Via) < len(want) || fmt.Sprint(f.Publish.Via[:len(want)]) != fmt.Sprint(want) {
				t.Errorf("finding %s: want OBX001 with the publish via %v, got %s via %v", k, want, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/mqlib.CaseService).Save":
			// the goroutine's publish: the library's loop retries until
			// the write succeeds, it is no worker's loop
			if f.Rule != dualwrite.RuleAsync || len(f.Publish.Via) < 2 || f.Publish.Via[0] != "(*shapes/product/mqlib.CaseService).syncCase" {
				t.Errorf("finding %s: want OBX005 with the publish via syncCase, got %s via %v", k, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/funcfield.Handler).UpdateResource":
			// the bus calls the publish function its constructor chose
			// and kept in a field: conn.Publish or a JetStream closure
			want := []string{"(shapes/product/funcfield.EventBus).Publish", "(*shapes/product/funcfield/bus.Publisher).Publish", "(*shapes/product/funcfield/bus.Publisher).PublishData", "(*shapes/product/funcfield/bus.Publisher).publish"}
			if f.Rule != dualwrite.RuleAfterWrite || len(f.Publish.Via) < len(want) || fmt.Sprint(f.Publish.Via[:len(want)]) != fmt.Sprint(want) {
				t.Errorf("finding %s: want OBX001 with the publish via %v, got %s via %v", k, want, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/chanemit.Service).CreateCollection":
			// the send on the emitter's queue is the publish of the
			// goroutine that drains it into the NATS handler
			want := []string{"(*shapes/product/chanemit.Emitter).Emit", "(*shapes/product/chanemit.Emitter).queue <-", "(*shapes/product/chanemit.Emitter).run"}
			if f.Rule != dualwrite.RuleAfterCommit || len(f.Publish.Via) < len(want) || fmt.Sprint(f.Publish.Via[:len(want)]) != fmt.Sprint(want) {
				t.Errorf("finding %s: want OBX002 with the publish via %v, got %s via %v", k, want, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/chanemit.Chain).AddBlock":
			// the channel is passed to the producer interface's Start,
			// whose implementation keeps it in a field a goroutine drains
			if f.Rule != dualwrite.RuleAfterWrite || len(f.Publish.Via) < 1 || f.Publish.Via[0] != "(*shapes/product/chanemit.Chain).msgs <-" {
				t.Errorf("finding %s: want OBX001 with the publish via the msgs channel, got %s via %v", k, f.Rule, f.Publish.Via)
			}
		case "shapes/product/ginaudit.ActivityLog", "shapes/product/ginaudit.Notify":
			// c.Next() runs the handlers of the routes the middleware is
			// installed on: every route for the engine's, the secrets
			// group's (registered in registerSecrets) for Notify
			want := []string{"(*github.com/gin-gonic/gin.Context).Next", "p.Create", "(*shapes/product/ginaudit.Policies).Create"}
			if f.Rule != dualwrite.RuleAfterWrite || f.Write == nil || fmt.Sprint(f.Write.Via) != fmt.Sprint(want) {
				t.Errorf("finding %s: want OBX001 after the write via %v, got %s, write %+v", k, want, f.Rule, f.Write)
			}
		case "(shapes/product/auditsink.handler).PutResource":
			// Record sends on the auditor's field, which holds the channel
			// the constructor also gave the trail whose goroutine batches
			// the events (kept in a case, published in the ticker's case)
			want := []string{"(shapes/product/auditsink.Auditor).Record", "(*shapes/product/auditsink.standardAuditor).Record", "(*shapes/product/auditsink.standardAuditor).sink <-", "(shapes/product/auditsink.trail).commit"}
			if f.Rule != dualwrite.RuleAfterWrite || fmt.Sprint(f.Publish.Via) != fmt.Sprint(want) {
				t.Errorf("finding %s: want OBX001 with the publish via %v, got %s via %v", k, want, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/stagefeed.withdrawStore).Update":
			// the store step hands the entity to the channel its caller
			// passed, in Feed's goroutine; every caller passes the
			// scheduler's notify channel, which the notify stage drains
			// into a publish (the done channel, also fed, publishes nothing)
			want := []string{"shapes/product/stagefeed.Feed", "(*shapes/product/stagefeed.Scheduler).run"}
			if f.Rule != dualwrite.RuleAsync || len(f.Publish.Via) < len(want) || fmt.Sprint(f.Publish.Via[:len(want)]) != fmt.Sprint(want) || f.Publish.Position.Line != 123 {
				t.Errorf("finding %s: want OBX005 at the notify feed (line 123) with the publish via %v, got %s via %v", k, want, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/chanemit.Validator).Validate":
			// the producer's Publish sends on a local copy of its field
			want := []string{"(*shapes/product/chanemit.AsyncProducer).Publish", "(*shapes/product/chanemit.AsyncProducer).publishCh <-"}
			if f.Rule != dualwrite.RuleAfterWrite || len(f.Publish.Via) < len(want) || fmt.Sprint(f.Publish.Via[:len(want)]) != fmt.Sprint(want) {
				t.Errorf("finding %s: want OBX001 with the publish via %v, got %s via %v", k, want, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/poolpub/usecase.MessageUsecase).Create":
			// the publisher publishes in a worker pool whose Go only sends
			// the task on a channel its worker goroutines run: still the
			// call's publish
			want := []string{"(shapes/product/poolpub/streaming.Publisher).Pub", "(*shapes/product/poolpub/streaming.NatsPublisher).Pub"}
			if f.Rule != dualwrite.RuleAfterWrite || len(f.Publish.Via) < len(want) || fmt.Sprint(f.Publish.Via[:len(want)]) != fmt.Sprint(want) {
				t.Errorf("finding %s: want OBX001 with the publish via %v, got %s via %v", k, want, f.Rule, f.Publish.Via)
			}
		case "shapes/product/funcparam.HandleMarkPublished":
			// the handler calls the parameters the route setup bound to
			// the store's methods; the audit write through a helper that
			// forwards its own parameter
			if f.Rule != dualwrite.RuleAfterWrite || fmt.Sprint(f.Publish.Via) != "[markPublished (*shapes/product/funcparam.Store).Announce]" ||
				f.Write == nil || fmt.Sprint(f.Write.Via) != "[shapes/product/funcparam.audit create (*shapes/product/funcparam.Store).CreateEvent]" {
				t.Errorf("finding %s: want OBX001 with the publish via markPublished and the write via audit's create, got %s via %v, %+v", k, f.Rule, f.Publish.Via, f.Write)
			}
		case "(*shapes/product/funcparam.Store).PublishInTx":
			// the publish Meter's callback does, inside the bun
			// transaction, before its update
			if f.Rule != dualwrite.RuleBeforeWrite || len(f.Publish.Via) < 1 || f.Publish.Via[0] != "publishFn" || f.Publish.Position.Line != 40 {
				t.Errorf("finding %s: want OBX004 at the publishFn call (line 40), got %s via %v", k, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/funcparam.Store).handleOperation":
			// the operation writes on the transaction it is given, which
			// the handler commits before it announces
			if f.Rule != dualwrite.RuleAfterCommit || f.Write == nil || fmt.Sprint(f.Write.Via) != "[op shapes/product/funcparam.captureStart]" {
				t.Errorf("finding %s: want OBX002 with the write via op, got %s, %+v", k, f.Rule, f.Write)
			}
		case "(*shapes/product/genericport.Customers).Register":
			// the port instantiated with Event, its Stream[Raw, Raw]
			// field's embedded Publish: both resolved to the plain types
			// that implement the instantiations
			want := []string{"(shapes/product/genericport.Publisher[shapes/product/genericport.Event]).Publish", "(shapes/product/genericport.eventStream).Publish",
				"(shapes/product/genericport.Stream[shapes/product/genericport.Raw, shapes/product/genericport.Raw]).Publish", "(shapes/product/genericport.jsStream).Publish"}
			if f.Rule != dualwrite.RuleAfterWrite || fmt.Sprint(f.Publish.Via) != fmt.Sprint(want) {
				t.Errorf("finding %s: want OBX001 with the publish via %v, got %s via %v", k, want, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/typedbus.Wallet).saveLog":
			// the dispatch runs the listener subscribed async for the
			// event's type, in the bus's goroutine
			want := []string{"github.com/ixre/gof/domain/eventbus.Dispatch", "(*shapes/product/typedbus.Handler).OnAccountLog"}
			if f.Rule != dualwrite.RuleAsync || fmt.Sprint(f.Publish.Via) != fmt.Sprint(want) {
				t.Errorf("finding %s: want OBX005 with the publish via %v, got %s via %v", k, want, f.Rule, f.Publish.Via)
			}
		case "(*shapes/product/typedbus.Wallet).Adjust":
			// the aggregate announces its log, then stores its balance
			if f.Rule != dualwrite.RuleBeforeWrite || f.Write == nil || fmt.Sprint(f.Write.Via) != "[(*shapes/product/typedbus.Wallet).Save]" {
				t.Errorf("finding %s: want OBX004 with the write via Wallet.Save, got %s, %+v", k, f.Rule, f.Write)
			}
		default:
			t.Errorf("unexpected interface-resolved finding in %s", f.Func)
		}
	}
}

// TestGeneratedGlueSilent: the shapes of the relay and the inbox glue
// outboxify generates give no finding with the CLI's resolver either (their
// claim, mark and inbox insert sit behind interfaces and batches), except
// the fixture's one real consumer-side dual write.
func TestGeneratedGlueSilent(t *testing.T) {
	pkgs := loadFixtures(t, "shapes/relayglue", "shapes/inboxglue")
	cli := findings(t, dualwrite.NewAnalyzer(dualwrite.Options{Resolver: dualwrite.ProgramResolver(pkgs, nil)}), pkgs)
	for k, f := range cli {
		if f.Func == "shapes/inboxglue.recordThenAnnounce" && f.Rule == dualwrite.RuleAfterCommit {
			continue
		}
		t.Errorf("finding on generated-glue shape: %s %s", k, f.Message)
	}
	if len(cli) != 1 {
		t.Errorf("got %d findings, want only recordThenAnnounce's OBX002", len(cli))
	}
}

func hasRepeat(via []string) bool {
	seen := map[string]bool{}
	for _, v := range via {
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}

// TestMiddlewaresWrapNotRun loads the RPC server fixture on its own (with
// the agent that registers a publishing handler): applying middlewares
// (hf = s.mw[i](hf)) wraps the handlers, so the server's start-up wiring,
// which seeds a table and starts Run, holds no finding.
func TestMiddlewaresWrapNotRun(t *testing.T) {
	pkgs := loadFixtures(t, "shapes/product/rpcserver")
	cli := findings(t, dualwrite.NewAnalyzer(dualwrite.Options{Resolver: dualwrite.ProgramResolver(pkgs, nil)}), pkgs)
	for k, f := range cli {
		t.Errorf("finding %s in %s: %s", k, f.Func, f.Message)
	}
}
