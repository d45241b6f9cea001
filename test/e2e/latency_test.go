//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestAdmissionLatency measures what paramctl webhook's calls cost the
// apiserver, against a minimal webhook that reads the review and allows
// it (cmd/minimal-webhook, Go's HTTPS server on HTTP/1.1) and against no
// webhook at all. Creates of the same Instance (an operator version with
// 40 parameters, testdata/latency) go round-robin to four namespaces: one
// no webhook selects, one whose validating and mutating webhooks are the
// minimal one, one whose are a paramctl webhook of their own (started
// here, with its default flags, called directly), and one whose are the
// minimal webhook answering with paramctl's own answers to this create
// (computed offline with paramctl webhook --review): what paramctl's
// answers cost the apiserver (a patch to apply, a larger object) without
// paramctl's work. A fifth namespace's are the minimal one answering
// /validate with paramctl's answer and /mutate with a patch of one small
// operation (a single default): the floor of any mutating webhook that
// changes the object, which the apiserver pays to apply a patch at all.
// With PARAMKIT_E2E_PARAMCTL_BEFORE naming another paramctl binary (a
// build of main, say), a sixth namespace's webhooks are that binary, so
// that a change is measured before and after in one run. The figures are the
// apiserver's own metric apiserver_admission_webhook_admission_duration_seconds
// (scraped from /metrics before and after) per create, both calls
// together, and the creates' latency as the client sees it.
//
// It prints the figures and asserts nothing about them: timing depends on
// the machine. PARAMKIT_E2E_LATENCY_ROUNDS sets the rounds (150: 150
// creates a namespace after 20 rounds of warm-up).
func TestAdmissionLatency(t *testing.T) {
	c := need(t)
	dir := t.TempDir()
	rounds := 150
	if s := os.Getenv("PARAMKIT_E2E_LATENCY_ROUNDS"); s != "" {
		n, err := strconv.Atoi(s)
		require.NoError(t, err)
		rounds = n
	}

	// The two webhooks, on certificates of the run's CA.
	hookCert, hookKey := filepath.Join(c.dir, "webhook.crt"), filepath.Join(c.dir, "webhook.key")
	paramctl, err := paramctlBinary(dir)
	require.NoError(t, err)
	minimal := filepath.Join(dir, "minimal-webhook")
	out, err := exec.Command("go", "build", "-o", minimal, "./cmd/minimal-webhook").CombinedOutput()
	require.NoError(t, err, "%s", out)
	schemas, err := filepath.Abs(filepath.Join("testdata", "latency"))
	require.NoError(t, err)
	serve := func(name, bin string, args ...string) string {
		port, err := freePort()
		require.NoError(t, err)
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		p, err := startProcess(c.dir, name, bin, append(args, "--cert", hookCert, "--key", hookKey, "--addr", addr)...)
		require.NoError(t, err)
		t.Cleanup(p.stop)
		require.NoError(t, p.waitReady(time.Minute, func(ctx context.Context) error {
			return httpOK(ctx, c.hook, "https://"+addr+"/healthz", "", "")
		}))
		return "https://" + addr
	}
	minimalURL := serve("latency-minimal-webhook", minimal)
	paramctlURL := serve("latency-paramctl-webhook", paramctl, "webhook", "--schemas", schemas)

	obj := func(name string) map[string]any {
		return instance(name, "forty-1.0.0", map[string]any{
			"name00": "prod", "name01": "blue-team", "name02": "eu-west", "name03": "x",
			"count00": 3, "count01": 12, "count02": 100, "count03": 99999,
			"flag00": true, "flag01": false, "mode00": "fast", "mode01": "balanced",
			"backup":    map[string]any{"enabled": true, "schedule": "0 4 * * *", "retention": 14},
			"zones":     []any{"a", "b"},
			"ports":     []any{8080, 8443, 9090},
			"labels":    map[string]any{"team": "storage", "tier": "gold", "cost-center": "4711"},
			"resources": map[string]any{"cpu": "2", "memory": "8Gi"},
		})
	}
	// paramctl's own answers to this create, offline: served by the minimal
	// webhook, they cost the apiserver what paramctl's do, without
	// paramctl's work.
	answersDir := filepath.Join(dir, "answers")
	require.NoError(t, os.Mkdir(answersDir, 0o755))
	review, err := json.Marshal(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
		"request": map[string]any{"uid": "u", "kind": map[string]any{"group": "kudo.dev", "version": "v1beta2", "kind": "Instance"},
			"namespace": "latency", "operation": "CREATE", "object": obj("answers")}})
	require.NoError(t, err)
	reviewFile := filepath.Join(dir, "review.json")
	require.NoError(t, os.WriteFile(reviewFile, review, 0o600))
	for _, endpoint := range []string{"validate", "mutate"} {
		out, err := exec.Command(paramctl, "webhook", "--schemas", schemas, "--review", reviewFile, "--endpoint", endpoint).Output()
		require.NoError(t, err, "%s", out)
		require.NoError(t, os.WriteFile(filepath.Join(answersDir, endpoint+".json"), out, 0o600))
	}
	answersURL := serve("latency-answers-webhook", minimal, "--answers", answersDir)
	onePatchDir := filepath.Join(dir, "one-patch")
	require.NoError(t, os.Mkdir(onePatchDir, 0o755))
	validateAnswer, err := os.ReadFile(filepath.Join(answersDir, "validate.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(onePatchDir, "validate.json"), validateAnswer, 0o600))
	mutateAnswer, err := os.ReadFile(filepath.Join(answersDir, "mutate.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(onePatchDir, "mutate.json"),
		withPatch(t, mutateAnswer, `[{"op":"add","path":"/spec/parameters/name05","value":"value-5"}]`), 0o600))
	onePatchURL := serve("latency-one-patch-webhook", minimal, "--answers", onePatchDir)
	kinds := []string{"none", "minimal", "paramctl", "answers", "onepatch"}
	beforeURL := ""
	if before := os.Getenv("PARAMKIT_E2E_PARAMCTL_BEFORE"); before != "" {
		before, err = filepath.Abs(before)
		require.NoError(t, err)
		beforeURL = serve("latency-paramctl-before-webhook", before, "webhook", "--schemas", schemas)
		kinds = append(kinds, "before")
	}

	suffix := strconv.FormatInt(time.Now().UnixNano()%100000, 10)
	ns := map[string]string{}
	for _, k := range kinds {
		value := "latency-" + k + "-" + suffix
		ns[k] = c.labelledNamespace(t, value)
		switch k {
		case "minimal":
			c.installAdmission(t, value, minimalURL)
		case "paramctl":
			c.installAdmission(t, value, paramctlURL)
		case "answers":
			c.installAdmission(t, value, answersURL)
		case "onepatch":
			c.installAdmission(t, value, onePatchURL)
		case "before":
			c.installAdmission(t, value, beforeURL)
		}
	}
	hookName := func(k string) (validate, mutate string) {
		value := "latency-" + k + "-" + suffix
		return "validating." + value + ".paramkit.dev", "mutating." + value + ".paramkit.dev"
	}

	create := func(k, name string) (time.Duration, error) {
		start := time.Now()
		r, err := c.api.doJSON(context.Background(), http.MethodPost, path("v1beta2", "instances", ns[k], ""), obj(name))
		took := time.Since(start)
		if err != nil {
			return took, err
		}
		if r.code != http.StatusCreated {
			return took, fmt.Errorf("create in %s: %d %s", ns[k], r.code, r.body)
		}
		if k != "none" && k != "minimal" && !bytes.Contains(r.body, []byte(`"name05":"value-5"`)) {
			return took, fmt.Errorf("paramctl's /mutate did not default: %s", r.body)
		}
		return took, nil
	}
	// The apiserver calls a webhook a moment after its configuration is
	// written; until then, and for 20 rounds more, nothing is counted.
	warm := 0
	eventually(t, "the latency webhooks called", func() error {
		warm++
		for _, k := range kinds {
			if _, err := create(k, fmt.Sprintf("warm-%d", warm)); err != nil {
				return err
			}
		}
		return nil
	})
	for i := range 20 {
		for _, k := range kinds {
			_, err := create(k, fmt.Sprintf("warmup-%d", i))
			require.NoError(t, err)
		}
	}

	before := c.webhookMetric(t)
	took := map[string][]time.Duration{}
	for i := range rounds {
		for _, k := range kinds {
			d, err := create(k, fmt.Sprintf("lat-%d", i))
			require.NoError(t, err)
			took[k] = append(took[k], d)
		}
	}
	after := c.webhookMetric(t)

	perCreate := map[string]float64{}
	for _, k := range kinds[1:] {
		v, m := hookName(k)
		for _, name := range []string{v, m} {
			sum := after[name].sum - before[name].sum
			count := after[name].count - before[name].count
			require.Equal(t, float64(rounds), count, "calls of %s counted by the apiserver", name)
			perCreate[k] += sum / float64(rounds)
			t.Logf("%-45s %4.0f calls, %.3f ms a call", name, count, sum/count*1000)
		}
	}
	median := func(d []time.Duration) time.Duration {
		s := append([]time.Duration(nil), d...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[len(s)/2]
	}
	t.Logf("%d creates in each namespace, round-robin", rounds)
	for _, k := range kinds {
		extra := ""
		if k != "none" {
			extra = fmt.Sprintf("; webhook time per create (apiserver metric, validating + mutating): %.3f ms", perCreate[k]*1000)
		}
		t.Logf("%-9s create latency (client) median %.3f ms%s", k, float64(median(took[k]))/1e6, extra)
	}
	t.Logf("ratio paramctl / minimal (apiserver metric per create): %.2f", perCreate["paramctl"]/perCreate["minimal"])
	t.Logf("ratio paramctl / paramctl's answers from the minimal webhook (apiserver metric per create): %.2f", perCreate["paramctl"]/perCreate["answers"])
	t.Logf("ratio paramctl's answers / the same with a one-operation patch (apiserver metric per create): %.2f", perCreate["answers"]/perCreate["onepatch"])
	t.Logf("ratio one-operation patch / minimal: the floor of a webhook that patches (apiserver metric per create): %.2f", perCreate["onepatch"]/perCreate["minimal"])
	if beforeURL != "" {
		t.Logf("ratio paramctl before / minimal (apiserver metric per create): %.2f", perCreate["before"]/perCreate["minimal"])
		t.Logf("ratio paramctl before / paramctl (apiserver metric per create): %.2f", perCreate["before"]/perCreate["paramctl"])
	}
	// The metric is a mean, which a few stalls of a loaded machine move;
	// the medians of the creates' latency are steadier.
	none := float64(median(took["none"]))
	t.Logf("ratio paramctl / minimal (median create latency above the namespace without webhooks): %.2f",
		(float64(median(took["paramctl"]))-none)/(float64(median(took["minimal"]))-none))
	t.Logf("ratio paramctl / paramctl's answers from the minimal webhook (median create latency above the namespace without webhooks): %.2f",
		(float64(median(took["paramctl"]))-none)/(float64(median(took["answers"]))-none))
	t.Logf("ratio one-operation patch / minimal (median create latency above the namespace without webhooks): %.2f",
		(float64(median(took["onepatch"]))-none)/(float64(median(took["minimal"]))-none))
	if beforeURL != "" {
		t.Logf("ratio paramctl before / minimal (median create latency above the namespace without webhooks): %.2f",
			(float64(median(took["before"]))-none)/(float64(median(took["minimal"]))-none))
	}
}

type histogram struct{ sum, count float64 }

// webhookMetric scrapes the apiserver's
// apiserver_admission_webhook_admission_duration_seconds, sum and count
// per webhook name (over all operations and outcomes).
func (c *cluster) webhookMetric(t *testing.T) map[string]histogram {
	t.Helper()
	r, err := c.api.do(context.Background(), http.MethodGet, "/metrics", "", nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	const metric = "apiserver_admission_webhook_admission_duration_seconds_"
	out := map[string]histogram{}
	sc := bufio.NewScanner(bytes.NewReader(r.body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, metric)
		if !ok {
			continue
		}
		kind, labels, ok := strings.Cut(rest, "{")
		if !ok || (kind != "sum" && kind != "count") {
			continue
		}
		labels, value, ok := strings.Cut(labels, "} ")
		if !ok {
			continue
		}
		name := ""
		for _, l := range strings.Split(labels, ",") {
			if v, ok := strings.CutPrefix(l, `name="`); ok {
				name = strings.TrimSuffix(v, `"`)
			}
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		require.NoError(t, err, line)
		h := out[name]
		if kind == "sum" {
			h.sum += f
		} else {
			h.count += f
		}
		out[name] = h
	}
	return out
}

// withPatch returns a mutating answer (an AdmissionReview) with its patch
// replaced by patch.
func withPatch(t *testing.T, answer []byte, patch string) []byte {
	var review map[string]any
	require.NoError(t, json.Unmarshal(answer, &review))
	resp, ok := review["response"].(map[string]any)
	require.True(t, ok, "%s", answer)
	resp["patch"] = base64.StdEncoding.EncodeToString([]byte(patch))
	resp["patchType"] = "JSONPatch"
	out, err := json.Marshal(review)
	require.NoError(t, err)
	return out
}
