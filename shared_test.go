package paramkit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/gates"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// sharedRuns is how many goroutines use one value at once, each going
// through every case a few times, in a different order from the others.
const sharedRuns, sharedRounds = 8, 3

// useShared runs each of n cases serially once, then from sharedRuns
// goroutines at once on the same shared value, and requires every
// concurrent result to equal the serial one. Under -race (the README's
// go test -race ./... and .ci/run), a data race inside the shared value
// fails the test; without it, results still must agree.
func useShared(t sharedT, n int, run func(i int) (any, error)) {
	t.Helper()
	type outcome struct {
		v   any
		err string
	}
	do := func(i int) outcome {
		v, err := run(i)
		o := outcome{v: v}
		if err != nil {
			o.err = err.Error()
		}
		return o
	}
	serial := make([]outcome, n)
	worked := 0
	for i := range n {
		serial[i] = do(i)
		if serial[i].err == "" {
			worked++
		}
	}
	if worked == 0 {
		t.Errorf("every case failed serially: the run would share nothing but errors (first: %s)", serial[0].err)
	}
	var wg sync.WaitGroup
	for g := range sharedRuns {
		wg.Go(func() {
			for r := range sharedRounds {
				for k := range n {
					i := (k + g + r) % n // each goroutine in its own order
					got := do(i)
					if !assert.Equal(t, serial[i], got, "case %d, goroutine %d: a concurrent result differs from the serial one", i, g) {
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

// sharedT is what useShared needs of a test: a *testing.T, or a fakeT
// that checks the check.
type sharedT interface {
	Helper()
	Errorf(format string, args ...any)
}

// fakeT records a failure instead of failing a test.
type fakeT struct {
	mu     sync.Mutex
	failed bool
}

func (*fakeT) Helper() {}

func (f *fakeT) Errorf(string, ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failed = true
}

func mustParse(t *testing.T, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	return s
}

func mustDecode(t *testing.T, src string) any {
	t.Helper()
	v, err := params.Decode(nil, []byte(src))
	require.NoError(t, err)
	return v
}

// TestSharedValuesAreSafeForConcurrentUse: every type whose doc says it
// is safe for concurrent use (a compiled schema has its own tests in
// schema and params) serves many goroutines at once, as in a webhook
// or an operator's reconcilers, with the results of a serial run.
func TestSharedValuesAreSafeForConcurrentUse(t *testing.T) {
	t.Run("migrate.Migration", func(t *testing.T) {
		old := mustParse(t, `{type: object, properties: {replicas: {type: integer}, size: {type: number}, mode: {type: string}, labels: {type: object, additionalProperties: {type: string}}}}`)
		target := mustParse(t, `{type: object, properties: {replicaCount: {type: integer, oldName: replicas}, size: {type: integer}, labels: {type: object, additionalProperties: {type: string}}, tier: {type: string, default: gold}}}`)
		m, err := migrate.New(target, migrate.FromVersion(old))
		require.NoError(t, err)
		inputs := []any{
			mustDecode(t, `{replicas: 3, size: 2, labels: {a: b}}`),
			mustDecode(t, `{replicas: 1, size: 2.5, mode: legacy}`),
			mustDecode(t, `{size: 9007199254740993, labels: {x: "1", y: "2"}}`),
			mustDecode(t, `{replicas: "three"}`),
			mustDecode(t, `{}`),
		}
		useShared(t, len(inputs), func(i int) (any, error) { return m.Migrate(inputs[i]) })
		docs := []string{"replicas: 2\nsize: 1.0\n", "mode: x\n", "replicas: [\n"}
		useShared(t, len(docs), func(i int) (any, error) { return m.MigrateDocument([]byte(docs[i])) })
	})

	t.Run("migrate.VersionSet", func(t *testing.T) {
		set, err := migrate.LoadVersionSet(os.DirFS("convert/migrate/testdata/versions/three"))
		require.NoError(t, err)
		values := map[string]any{
			"v1": mustDecode(t, `{name: a, replicas: 3, size: 2, labels: {k: v}, legacyMode: true}`),
			"v2": mustDecode(t, `{name: b, replicaCount: 4, size: 3, tier: gold}`),
			"v3": mustDecode(t, `{name: c, scaling: {replicas: 5, autoscale: true}, tier: silver}`),
		}
		type pair struct{ from, to string }
		var pairs []pair
		for _, from := range set.Order() {
			for _, to := range set.Order() {
				pairs = append(pairs, pair{from, to})
			}
		}
		useShared(t, len(pairs), func(i int) (any, error) {
			return set.Convert(values[pairs[i].from], pairs[i].from, pairs[i].to, migrate.AllowLossy())
		})
		useShared(t, len(pairs), func(i int) (any, error) {
			obj := map[string]any{"apiVersion": "example.com/" + pairs[i].from, "kind": "Cache", "metadata": map[string]any{"name": "n"}}
			for k, v := range values[pairs[i].from].(map[string]any) {
				obj[k] = v
			}
			return set.ConvertObject(obj, pairs[i].from, pairs[i].to, migrate.ObjectTarget{APIVersion: "example.com/" + pairs[i].to})
		})
	})

	t.Run("kube.Definition", func(t *testing.T) {
		crd, err := os.ReadFile("kube/testdata/verdict/real/gateway.networking.k8s.io_httproutes.yaml")
		require.NoError(t, err)
		def, err := kube.ReadDefinition(crd)
		require.NoError(t, err)
		stream, err := os.ReadFile("kube/testdata/verdict/real/objects.yaml")
		require.NoError(t, err)
		docs := strings.Split(string(stream), "\n---\n")
		old := []byte(docs[0])
		useShared(t, len(docs), func(i int) (any, error) {
			o := &kube.JudgeOptions{}
			if i%2 == 1 {
				o.Old = old // updates too: transition rules against the stored object
			}
			return def.Judge(context.Background(), []byte(docs[i]), o)
		})
	})

	t.Run("trigger.Resolver", func(t *testing.T) {
		r, err := trigger.New(mustParse(t, `
type: object
properties:
  replicas: {type: integer}
  backup:
    type: object
    trigger: backup
    properties:
      enabled: {type: boolean}
      schedule: {type: string, trigger: backup}
  tls:
    type: object
    trigger: rotate
    properties: {cert: {type: string}}
`))
		require.NoError(t, err)
		changes := [][]string{{"/replicas"}, {"/backup/enabled"}, {"/backup/schedule", "/backup"}, {"/tls/cert"}, {"/tls/cert", "/backup/enabled"}, {}, {"/unknown/deep"}}
		useShared(t, len(changes), func(i int) (any, error) { return r.Resolve(changes[i]) })
		ptrs := []string{"", "/replicas", "/backup", "/backup/schedule", "/tls/cert", "/nowhere"}
		useShared(t, len(ptrs), func(i int) (any, error) { return r.Effective(ptrs[i]), nil })
	})

	t.Run("gates.Set", func(t *testing.T) {
		data, err := os.ReadFile("params/gates/testdata/crontab-gates.yaml")
		require.NoError(t, err)
		set, err := gates.Parse(data)
		require.NoError(t, err)
		cr := mustDecode(t, `{apiVersion: stable.example.com/v1, kind: CronTab, spec: {cronSpec: "* * * * */5", image: img, replicas: 3, foo: 1, bar: [1, 2]}}`)
		stored := mustDecode(t, `{apiVersion: stable.example.com/v1, kind: CronTab, spec: {cronSpec: "* * * * */5", image: img, replicas: 2}}`)
		cases := [][2]any{{cr, nil}, {cr, stored}, {stored, cr}, {stored, nil}}
		useShared(t, len(cases), func(i int) (any, error) { return set.Apply(cases[i][0], cases[i][1]), nil })
		useShared(t, 1, func(int) (any, error) { return set.Status(), nil })
	})

	t.Run("kudo.OperatorVersion", func(t *testing.T) {
		data, err := os.ReadFile("convert/testdata/kep/operatorversion-upgrade.v1beta1.yaml")
		require.NoError(t, err)
		ov, err := kudo.Load("v1", data)
		require.NoError(t, err)
		old := mustDecode(t, `{CLUSTER_NAME: one}`)
		desired := []any{
			mustDecode(t, `{CLUSTER_NAME: one, BACKUP_ENABLED: true}`),
			mustDecode(t, `{CLUSTER_NAME: two}`),
			mustDecode(t, `{CLUSTER_NAME: 3}`),
			mustDecode(t, `{}`),
		}
		useShared(t, len(desired), func(i int) (any, error) { return ov.Update(old, desired[i]) })
		useShared(t, len(desired), func(i int) (any, error) {
			return ov.Parameters(map[string]any{"spec": map[string]any{"parameters": desired[i]}}), nil
		})
	})

	t.Run("useShared sees a difference", func(t *testing.T) {
		// The check itself: a value whose results change from call to call
		// (shared state, unsynchronised in a real bug) fails it.
		var mu sync.Mutex
		calls := 0
		ft := &fakeT{}
		useShared(ft, 2, func(int) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			calls++
			return json.Number(fmt.Sprint(calls)), nil
		})
		assert.True(t, ft.failed, "a result that changes from call to call must fail the comparison")
	})
}
