//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var operatorArgs = flag.String("operator-args", "", "more flags for the operator the e2e tests start, separated by spaces")

var scaleInstances = flag.Int("operator-instances", 1000, "Instances BenchmarkOperatorScale creates (10000 for the issue's figure)")

// instanceState is what the watch last saw of an Instance.
type instanceState struct {
	generation, observed int64
	valid                string // ParametersValid's status, "" before any
	seen                 time.Time
}

// instanceWatch follows every Instance of opNamespace through a watch
// (a poll of 10,000 objects would load the apiserver it measures).
type instanceWatch struct {
	mu      sync.Mutex
	cond    *sync.Cond
	objects map[string]instanceState
	err     error
}

// instanceEvent is the part of a watch event (or of a list item, as
// Object) the benchmark reads.
type instanceEvent struct {
	Type   string         `json:"type"`
	Object instanceObject `json:"object"`
}

type instanceObject struct {
	Metadata struct {
		Name            string `json:"name"`
		Generation      int64  `json:"generation"`
		ResourceVersion string `json:"resourceVersion"`
	} `json:"metadata"`
	Status struct {
		ObservedGeneration int64 `json:"observedGeneration"`
		Conditions         []struct {
			Type, Status string
		} `json:"conditions"`
	} `json:"status"`
}

// set records what o says, seen now where it changed anything.
func (w *instanceWatch) set(o instanceObject, now time.Time) {
	s := instanceState{generation: o.Metadata.Generation, observed: o.Status.ObservedGeneration, seen: now}
	for _, c := range o.Status.Conditions {
		if c.Type == "ParametersValid" {
			s.valid = c.Status
		}
	}
	if old, ok := w.objects[o.Metadata.Name]; ok && old.generation == s.generation && old.observed == s.observed && old.valid == s.valid {
		return
	}
	w.objects[o.Metadata.Name] = s
}

// watchInstances lists and then watches the Instances of opNamespace
// until ctx is done; a watch the apiserver ends (it closes watchers that
// fall behind a burst of writes) is resumed by a new list and watch.
func (o *opCluster) watchInstances(ctx context.Context) *instanceWatch {
	w := &instanceWatch{objects: map[string]instanceState{}}
	w.cond = sync.NewCond(&w.mu)
	hc := &http.Client{Transport: o.api.hc.Transport}
	get := func(query string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.api.base+opPath("v1beta2", "instances", "")+query, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+o.api.token)
		resp, err := hc.Do(req)
		if err == nil && resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			err = fmt.Errorf("GET instances%s: %s", query, resp.Status)
		}
		return resp, err
	}
	once := func() error {
		resp, err := get("")
		if err != nil {
			return err
		}
		var list struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
			Items []instanceObject `json:"items"`
		}
		err = json.NewDecoder(resp.Body).Decode(&list)
		resp.Body.Close()
		if err != nil {
			return err
		}
		now := time.Now()
		w.mu.Lock()
		for _, it := range list.Items {
			w.set(it, now)
		}
		w.cond.Broadcast()
		w.mu.Unlock()
		resp, err = get("?watch=1&resourceVersion=" + list.Metadata.ResourceVersion)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		dec := json.NewDecoder(bufio.NewReaderSize(resp.Body, 1<<16))
		for {
			var ev instanceEvent
			if err := dec.Decode(&ev); err != nil {
				return err
			}
			if ev.Type == "ERROR" {
				return fmt.Errorf("watch error event")
			}
			now := time.Now()
			w.mu.Lock()
			if ev.Type == "DELETED" {
				delete(w.objects, ev.Object.Metadata.Name)
			} else {
				w.set(ev.Object, now)
			}
			w.cond.Broadcast()
			w.mu.Unlock()
		}
	}
	go func() {
		failures := 0
		for ctx.Err() == nil {
			err := once()
			if ctx.Err() != nil {
				return
			}
			if failures++; failures > 20 {
				w.mu.Lock()
				w.err = err
				w.cond.Broadcast()
				w.mu.Unlock()
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	return w
}

// until waits until f holds over the objects, or fails after timeout.
func (w *instanceWatch) until(t testing.TB, timeout time.Duration, what string, f func(map[string]instanceState) bool) {
	t.Helper()
	timer := time.AfterFunc(timeout, func() {
		w.mu.Lock()
		w.cond.Broadcast()
		w.mu.Unlock()
	})
	defer timer.Stop()
	deadline := time.Now().Add(timeout)
	w.mu.Lock()
	defer w.mu.Unlock()
	for !f(w.objects) {
		if w.err != nil {
			t.Fatalf("watch of Instances: %v", w.err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: not yet %s", timeout, what)
		}
		w.cond.Wait()
	}
}

// settled is the number of objects whose name starts with "s-" whose
// status is valid at their current generation.
func settled(objs map[string]instanceState, valid string) int {
	k := 0
	for name, s := range objs {
		if len(name) > 2 && name[:2] == "s-" && s.valid == valid && s.observed == s.generation {
			k++
		}
	}
	return k
}

// BenchmarkOperatorScale: the operator (defaults: --max-concurrent-reconciles
// as many as GOMAXPROCS, at least 2) with -operator-instances Instances
// (1,000; the figure is 10,000) of one OperatorVersion on a real
// apiserver. Each iteration edits the OperatorVersion so that every
// Instance changes validity (nodeCount 3 against a maximum of 2, then
// none), and once a tenth of the wave is done creates a newcomer
// Instance. Reported: create rate (setup), wave-s (edit to the last
// Instance's new status), newcomer-s (the newcomer's create answered to
// its status written, while the wave still runs) and whether the wave was
// still running then.
//
//	cd test/e2e && go test -tags e2e -run '^$' -bench OperatorScale -benchtime 1x . -operator-instances 10000
//
// -operator-args passes flags to the operator ("--max-concurrent-reconciles=1"
// for the one worker it had before).
func BenchmarkOperatorScale(b *testing.B) {
	n := *scaleInstances
	o := startOperatorCluster(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := o.watchInstances(ctx)
	o.mustCreate(opPath("v1beta2", "operatorversions", ""), o.sample("my-operator-0.2.0"))

	// Setup: n valid Instances, created by 8 clients at once.
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				r, err := o.api.doJSON(ctx, http.MethodPost, opPath("v1beta2", "instances", ""),
					opInstance(fmt.Sprintf("s-%05d", i), "my-operator-0.2.0", map[string]any{"clusterName": "c", "nodeCount": 3}))
				if err == nil && r.code != http.StatusCreated {
					err = fmt.Errorf("create %d: %d %s", i, r.code, r.body)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(b, err)
	}
	created := time.Since(start)
	w.until(b, 10*time.Minute, "every Instance valid", func(m map[string]instanceState) bool { return settled(m, "True") == n })
	b.Logf("operator flags: defaults %s", *operatorArgs)
	b.Logf("%d Instances created in %v (%.0f/s), all with status %v after the first create",
		n, created.Round(time.Millisecond), float64(n)/created.Seconds(), time.Since(start).Round(time.Millisecond))

	ovPath := opPath("v1beta2", "operatorversions", "my-operator-0.2.0")
	var waves, newcomers []time.Duration
	running := 0
	b.ResetTimer()
	// Two waves at least (invalid, valid again) for the one setup:
	// run with -benchtime 1x, more waves with -benchtime Nx.
	for i := range max(b.N, 2) {
		// Odd iterations: nodeCount at most 2 (every Instance invalid);
		// even ones: no maximum (valid again).
		want, maximum := "False", any(2)
		if i%2 == 1 {
			want, maximum = "True", nil
		}
		edit := time.Now()
		r := o.call(http.MethodPatch, ovPath, map[string]any{"spec": map[string]any{"parameters": map[string]any{"properties": map[string]any{"nodeCount": map[string]any{"maximum": maximum}}}}})
		require.Equal(b, http.StatusOK, r.code, "%s", r.body)
		w.until(b, 10*time.Minute, "a tenth of the wave done", func(m map[string]instanceState) bool { return settled(m, want) >= n/10 })

		name := "newcomer-" + strconv.Itoa(i)
		r = o.call(http.MethodPost, opPath("v1beta2", "instances", ""), opInstance(name, "my-operator-0.2.0", map[string]any{"clusterName": "c", "nodeCount": 1}))
		require.Equal(b, http.StatusCreated, r.code, "%s", r.body)
		answered := time.Now()
		var atNewcomer int
		w.until(b, 5*time.Minute, name+"'s status", func(m map[string]instanceState) bool {
			s, ok := m[name]
			if ok && s.valid == "True" && s.observed == s.generation {
				atNewcomer = settled(m, want)
				return true
			}
			return false
		})
		w.mu.Lock()
		newcomer := w.objects[name].seen.Sub(answered)
		w.mu.Unlock()
		if atNewcomer < n {
			running++
		}
		w.until(b, 10*time.Minute, "the wave done", func(m map[string]instanceState) bool { return settled(m, want) == n })
		var last time.Time
		w.mu.Lock()
		for name, s := range w.objects {
			if len(name) > 2 && name[:2] == "s-" && s.seen.After(last) {
				last = s.seen
			}
		}
		w.mu.Unlock()
		waves = append(waves, last.Sub(edit))
		newcomers = append(newcomers, newcomer)
		b.Logf("wave %d (%s): %v; newcomer's status %v after its create, with %d of %d Instances done", i+1, want, last.Sub(edit).Round(time.Millisecond), newcomer.Round(time.Millisecond), atNewcomer, n)
	}
	b.StopTimer()
	sort.Slice(newcomers, func(i, j int) bool { return newcomers[i] < newcomers[j] })
	var wave time.Duration
	for _, d := range waves {
		wave += d
	}
	b.ReportMetric(float64(n), "instances")
	b.ReportMetric((wave / time.Duration(len(waves))).Seconds(), "wave-s")
	b.ReportMetric(newcomers[len(newcomers)-1].Seconds(), "newcomer-max-s")
	b.ReportMetric(float64(running)/float64(len(waves)), "newcomer-during-wave")
	b.ReportMetric(float64(n)/created.Seconds(), "creates/s")
}
