package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/paramkit/paramkit/examples/webhook"
)

type webhookOptions struct {
	cert, key, addr, schemas string
	guess                    bool
	maxReview, maxConversion int64
	verbose                  bool
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
		name:  "webhook",
		usage: "--cert C --key K [--addr A] --schemas DIR [--guess-without-schema] [--max-review-bytes N] [--max-conversion-bytes N] [-v]",
		short: "serve admission (/validate, /mutate) and conversion (/convert) webhooks over HTTPS",
		setup: func(fs *flag.FlagSet) any {
			o := &webhookOptions{}
			fs.StringVar(&o.cert, "cert", "", "PEM certificate chain (reloaded when the file changes)")
			fs.StringVar(&o.key, "key", "", "PEM private key (reloaded when the file changes)")
			fs.StringVar(&o.addr, "addr", ":8443", "address to listen on")
			fs.StringVar(&o.schemas, "schemas", "", "directory with one schema per operator version, NAME.yaml or NAME.json")
			fs.BoolVar(&o.guess, "guess-without-schema", false, "convert Instances whose operator version has no schema by safe guessing instead of refusing")
			fs.Int64Var(&o.maxReview, "max-review-bytes", webhook.DefaultMaxReviewBytes, "largest /validate and /mutate body")
			fs.Int64Var(&o.maxConversion, "max-conversion-bytes", webhook.DefaultMaxConversionBytes, "largest /convert body")
			fs.BoolVar(&o.verbose, "v", false, "log every refusal and server event")
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
	if fi, err := os.Stat(o.schemas); err != nil || !fi.IsDir() {
		return e.fail(exitUsage, "--schemas %s: not a directory", o.schemas)
	}
	if _, err := tls.LoadX509KeyPair(o.cert, o.key); err != nil {
		return e.fail(exitUsage, "--cert %s --key %s: %v", o.cert, o.key, err)
	}
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))

	resolver := webhook.NewDirResolver(o.schemas)
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
	h, err := webhook.NewHandler(webhook.Options{
		Resolver:           resolver,
		GuessWithoutSchema: o.guess,
		MaxReviewBytes:     o.maxReview,
		MaxConversionBytes: o.maxConversion,
		Logger:             log,
	})
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	srv := &webhook.Server{CertFile: o.cert, KeyFile: o.key, Handler: h, Logger: log}
	l, err := net.Listen("tcp", o.addr)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	fmt.Fprintf(e.stderr, "serving /validate, /mutate, /convert and /healthz on https://%s with %d operator version schemas from %s\n", l.Addr(), len(versions), o.schemas)
	if webhookListening != nil {
		webhookListening(l.Addr())
	}
	if err := srv.Serve(ctx, l); err != nil && !errors.Is(err, context.Canceled) {
		return e.fail(exitUsage, "%v", err)
	}
	return exitOK
}
