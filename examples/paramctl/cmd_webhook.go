package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/gates"
	"log/slog"
	"math"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
)

type webhookOptions struct {
	cert, key, addr, schemas, gates string
	clientCA                        string
	convertWithoutClientCert        bool
	guess                           bool
	maxReview, maxConversion        int64
	maxInFlight                     int64
	maxAtOnce                       int
	enableHTTP2                     bool
	verbose                         bool
	review, endpoint                string
	roundTrip                       bool
}

// webhookContext is canceled when the server should stop: on SIGINT or
// SIGTERM (tests replace it).
var webhookContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// webhookListening, when set, is told the address the server listens on
// (tests use it with --addr 127.0.0.1:0).
var webhookListening func(net.Addr)

func init() {
	register(&command{
		name: "webhook",
		usage: "--cert FILE --key FILE [--addr ADDR] --schemas DIR [--client-ca FILE [--convert-without-client-cert]] [--gates FILE] [--guess-without-schema] [--max-review-bytes N] [--max-conversion-bytes N] [--max-body-bytes-in-flight N] [--max-reviews-at-once N] [--enable-http2] [-v]\n" +
			"       paramctl webhook --schemas DIR [--gates FILE] [--guess-without-schema] --review FILE [--endpoint validate|mutate] [--round-trip]",
		short: "serve admission (/validate, /mutate) and conversion (/convert) webhooks over HTTPS, or answer one review offline",
		setup: func(fs *flag.FlagSet) any {
			o := &webhookOptions{}
			fs.StringVar(&o.cert, "cert", "", "PEM certificate chain `FILE` (reloaded when the file changes)")
			fs.StringVar(&o.key, "key", "", "PEM private key `FILE` (reloaded when the file changes)")
			fs.StringVar(&o.addr, "addr", ":8443", "the `ADDR` to listen on, host:port")
			fs.StringVar(&o.schemas, "schemas", "", "the `DIR` with one schema per operator version, NAME.yaml or NAME.json")
			fs.StringVar(&o.clientCA, "client-ca", "", "PEM `FILE` of the certificate authorities whose client certificates may call /validate, /mutate and /convert (reloaded when the file changes); /healthz answers anyone")
			fs.BoolVar(&o.convertWithoutClientCert, "convert-without-client-cert", false, "with --client-ca: /convert answers callers without a client certificate too (kube-apiserver presents none to CRD conversion webhooks)")
			fs.StringVar(&o.gates, "gates", "", "field-level feature gates `FILE`: /mutate applies them to every object it admits, against oldObject on updates (as paramctl gates does)")
			fs.BoolVar(&o.guess, "guess-without-schema", false, "convert Instances whose operator version has no schema by safe guessing instead of refusing")
			fs.Int64Var(&o.maxReview, "max-review-bytes", DefaultMaxReviewBytes, "largest /validate and /mutate body, `N` bytes")
			fs.Int64Var(&o.maxConversion, "max-conversion-bytes", DefaultMaxConversionBytes, "largest /convert body, `N` bytes")
			fs.Int64Var(&o.maxInFlight, "max-body-bytes-in-flight", DefaultMaxBodyBytesInFlight, "request body bytes held at once across all requests, `N` (at least the largest body limit); beyond it a request gets 429 with Retry-After")
			fs.IntVar(&o.maxAtOnce, "max-reviews-at-once", 0, "reviews worked on at once, `N` (0: twice the CPUs); a review beyond it waits for a turn until its deadline, then gets 503 with Retry-After")
			fs.BoolVar(&o.enableHTTP2, "enable-http2", false, "offer HTTP/2 besides HTTP/1.1 (off by default since CVE-2023-44487; streams per connection are bounded)")
			fs.BoolVar(&o.verbose, "v", false, "log every refusal and server event")
			fs.StringVar(&o.review, "review", "", "answer the AdmissionReview or ConversionReview in `FILE` (- for standard input) and print the response, without serving")
			fs.StringVar(&o.endpoint, "endpoint", "validate", "with --review: the admission `ENDPOINT`, validate or mutate")
			fs.BoolVar(&o.roundTrip, "round-trip", false, "with --review of a ConversionReview: convert there and back, and check that the v1beta2 form came back unchanged")
			return o
		},
		run: runWebhook,
	})
}

func runWebhook(e *env, opts any, args []string) int {
	o := opts.(*webhookOptions)
	if len(args) > 0 {
		return e.fail(exitUsage, "webhook takes no arguments, got %q", strings.Join(args, " "))
	}
	if o.review != "" {
		return runReview(e, o)
	}
	var missing []string
	for _, f := range []struct{ name, val string }{{"--cert", o.cert}, {"--key", o.key}, {"--schemas", o.schemas}} {
		if f.val == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return e.fail(exitUsage, "webhook needs %s (HTTPS only)", strings.Join(missing, " and "))
	}
	if o.maxReview <= 0 || o.maxConversion <= 0 {
		return e.fail(exitUsage, "--max-review-bytes and --max-conversion-bytes must be positive")
	}
	if o.maxAtOnce < 0 {
		return e.fail(exitUsage, "--max-reviews-at-once %d: give a number of reviews, or 0 for twice the CPUs", o.maxAtOnce)
	}
	if o.maxInFlight < max(o.maxReview, o.maxConversion) {
		return e.fail(exitUsage, "--max-body-bytes-in-flight %d is less than the largest body limit %d: such a body could never be read", o.maxInFlight, max(o.maxReview, o.maxConversion))
	}
	if fi, err := os.Stat(o.schemas); err != nil || !fi.IsDir() {
		return e.fail(exitUsage, "--schemas %s: not a directory", o.schemas)
	}
	if _, err := tls.LoadX509KeyPair(o.cert, o.key); err != nil {
		return e.fail(exitUsage, "--cert %s --key %s: %v", o.cert, o.key, err)
	}
	if o.convertWithoutClientCert && o.clientCA == "" {
		return e.fail(exitUsage, "--convert-without-client-cert needs --client-ca")
	}
	if o.clientCA != "" {
		if _, err := kube.NewClientCA(o.clientCA, nil); err != nil {
			return e.fail(exitUsage, "--client-ca: %v", err)
		}
	}
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))

	resolver := NewDirResolver(o.schemas)
	ctx, stop := webhookContext()
	defer stop()
	versions, err := resolver.LoadAll(ctx)
	if err != nil {
		// A schema the webhook cannot use is refused up front rather than
		// on the first review that needs it.
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintln(e.stderr, line)
		}
		return exitUsage
	}
	set, code := e.loadWebhookGates(o.gates)
	if code != exitOK {
		return code
	}
	h, err := NewHandler(Options{
		Resolver:             resolver,
		Gates:                set,
		GuessWithoutSchema:   o.guess,
		MaxReviewBytes:       o.maxReview,
		MaxConversionBytes:   o.maxConversion,
		MaxReviewsAtOnce:     o.maxAtOnce,
		MaxBodyBytesInFlight: o.maxInFlight,
		Logger:               log,
	})
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	srv := &Server{CertFile: o.cert, KeyFile: o.key, Handler: h, Logger: log, ClientCAFile: o.clientCA,
		EnableHTTP2: o.enableHTTP2}
	defer tuneGC(o.maxInFlight)()
	if o.convertWithoutClientCert {
		srv.PathsWithoutClientCert = []string{"/convert"}
	}
	l, err := net.Listen("tcp", o.addr)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	fmt.Fprintf(e.stderr, "serving /validate, /mutate, /convert and /healthz on https://%s with %d operator version schemas from %s\n", l.Addr(), len(versions), o.schemas)
	switch {
	case o.convertWithoutClientCert:
		fmt.Fprintf(e.stderr, "only callers with a client certificate signed by %s reach /validate and /mutate; /convert and /healthz answer anyone\n", o.clientCA)
	case o.clientCA != "":
		fmt.Fprintf(e.stderr, "only callers with a client certificate signed by %s reach /validate, /mutate and /convert; /healthz answers anyone\n", o.clientCA)
		fmt.Fprintln(e.stderr, "note: kube-apiserver presents no client certificate to CRD conversion webhooks, so its calls to /convert are refused; where CRDs convert through this server, add --convert-without-client-cert")
	}
	if webhookListening != nil {
		webhookListening(l.Addr())
	}
	if err := srv.Serve(ctx, l); err != nil && !errors.Is(err, context.Canceled) {
		return e.fail(exitUsage, "%v", err)
	}
	return exitOK
}

// webhookGCPercent is the GOGC paramctl webhook runs with unless GOGC or
// GOMEMLIMIT is set. Its live heap is small (the compiled schemas) and a
// review is garbage as soon as it is answered, so Go's default of 100
// collects every few hundred reviews, and the collections were a third of
// a review's CPU time (BenchmarkOneCall in examples/webhook).
const webhookGCPercent = 400

// tuneGC collects less often than Go's default, under a soft memory limit
// of three times the body budget (at least 256 MiB) so that a heap made
// large by large bodies is still collected in time, and the server stays
// within 400 MB under 30 clients posting costly reviews (the bodies held,
// at most the budget, plus the reviews worked on at once); it leaves both alone
// when the environment sets either, and returns the undo.
func tuneGC(budget int64) func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := int64(math.MaxInt64)
	if budget <= math.MaxInt64/3 {
		limit = max(3*budget, 256<<20)
	}
	percent := debug.SetGCPercent(webhookGCPercent)
	limit = debug.SetMemoryLimit(limit)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// runReview answers one review file offline: the handler the server
// would use, without TLS or HTTP.
func runReview(e *env, o *webhookOptions) int {
	if o.schemas == "" {
		return e.fail(exitUsage, "webhook --review needs --schemas")
	}
	if o.endpoint != "validate" && o.endpoint != "mutate" {
		return e.fail(exitUsage, "--endpoint must be validate or mutate, not %q", o.endpoint)
	}
	if fi, err := os.Stat(o.schemas); err != nil || !fi.IsDir() {
		return e.fail(exitUsage, "--schemas %s: not a directory", o.schemas)
	}
	body, err := e.readInput(o.review)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	set, code := e.loadWebhookGates(o.gates)
	if code != exitOK {
		return code
	}
	h, err := NewHandler(Options{Resolver: NewDirResolver(o.schemas), GuessWithoutSchema: o.guess, Gates: set})
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	var head struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal(body, &head)
	path := "/" + o.endpoint
	if head.Kind == "ConversionReview" {
		path = "/convert"
	} else if o.roundTrip {
		return e.fail(exitUsage, "--round-trip needs a ConversionReview")
	}
	ctx := context.Background()
	out, err := h.ServeReview(ctx, path, body)
	if err != nil {
		return e.fail(exitUsage, "%s: %v", o.review, err)
	}
	if code := e.printReview(out); code != exitOK || !o.roundTrip {
		return code
	}
	return roundTrip(e, h, body, out)
}

// printReview prints a response review indented; exit 1 for a denial or
// a failed conversion.
func (e *env) printReview(out []byte) int {
	var v struct {
		Response struct {
			Allowed *bool `json:"allowed"`
			Result  *struct {
				Status string `json:"status"`
			} `json:"result"`
		} `json:"response"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, bytes.TrimSpace(out), "", "  "); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	buf.WriteByte('\n')
	_, _ = e.stdout.Write(buf.Bytes())
	if (v.Response.Allowed != nil && !*v.Response.Allowed) || (v.Response.Result != nil && v.Response.Result.Status != "Success") {
		return exitInvalid
	}
	return exitOK
}

// roundTrip converts the converted objects back to the version they came
// in and checks that their v1beta2 form is what it was: v1beta2 is the
// version stored, so that is what must survive an old client's read.
func roundTrip(e *env, h *Handler, in, out []byte) int {
	var req kube.ConversionReview
	var resp kube.ConversionReview
	if json.Unmarshal(in, &req) != nil || json.Unmarshal(out, &resp) != nil || req.Request == nil || resp.Response == nil {
		return e.fail(exitUsage, "--round-trip: cannot read the reviews")
	}
	from := ""
	for _, o := range req.Request.Objects {
		var m struct {
			APIVersion string `json:"apiVersion"`
		}
		_ = json.Unmarshal(o, &m)
		if from != "" && m.APIVersion != from {
			return e.fail(exitUsage, "--round-trip needs the objects in one apiVersion, found %s and %s", from, m.APIVersion)
		}
		from = m.APIVersion
	}
	ctx := context.Background()
	convert := func(objs []json.RawMessage, to string) ([]json.RawMessage, error) {
		r := h.Convert(ctx, &kube.ConversionRequest{UID: req.Request.UID, DesiredAPIVersion: to, Objects: objs})
		if r.Result.Status != "Success" {
			return nil, fmt.Errorf("%s", r.Result.Message)
		}
		return r.ConvertedObjects, nil
	}
	fmt.Fprintf(e.stdout, "\nand back to %s:\n", from)
	back := &kube.ConversionReview{APIVersion: req.APIVersion, Kind: "ConversionReview",
		Request: &kube.ConversionRequest{UID: req.Request.UID, DesiredAPIVersion: from, Objects: resp.Response.ConvertedObjects}}
	backBody, _ := json.Marshal(back)
	backOut, err := h.ServeReview(ctx, "/convert", backBody)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if code := e.printReview(backOut); code != exitOK {
		return code
	}
	var backResp kube.ConversionReview
	_ = json.Unmarshal(backOut, &backResp)
	// Compare the v1beta2 forms.
	before, after := req.Request.Objects, backResp.Response.ConvertedObjects
	if from != V1beta2 {
		if before, err = convert(before, V1beta2); err == nil {
			after, err = convert(after, V1beta2)
		}
		if err != nil {
			return e.fail(exitInvalid, "round trip: %v", err)
		}
	}
	changed := 0
	for i := range before {
		a, err1 := params.Decode(nil, before[i])
		b, err2 := params.Decode(nil, after[i])
		if err1 != nil || err2 != nil {
			return e.fail(exitUsage, "round trip: cannot read object %d", i)
		}
		if d := params.Diff(a, b); len(d) > 0 {
			changed++
			fmt.Fprintf(e.stderr, "object %d: changed by the round trip at %s\n", i, strings.Join(d, ", "))
		}
	}
	if changed > 0 {
		return exitInvalid
	}
	objects := "objects"
	if len(before) == 1 {
		objects = "object"
	}
	fmt.Fprintf(e.stdout, "\nround trip: the %s form of %d %s came back unchanged\n", V1beta2, len(before), objects)
	return exitOK
}

// loadWebhookGates reads --gates (none when empty); invalid gates stop the
// server from starting, every problem printed as POINTER: message.
func (e *env) loadWebhookGates(path string) (*gates.Set, int) {
	if path == "" {
		return nil, exitOK
	}
	data, err := e.readInput(path)
	if err != nil {
		return nil, e.fail(exitUsage, "--gates: %v", err)
	}
	g, err := gates.Parse(data)
	if err != nil {
		for _, r := range errorRecords(err) {
			fmt.Fprintf(e.stderr, "%s: %s: %s\n", path, displayPointer(r.Pointer), r.Message)
		}
		return nil, exitUsage
	}
	return g, exitOK
}
