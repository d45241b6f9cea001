package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zapcore"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/paramkit/paramkit/examples/operator/opversion"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
)

// TestConversionOfAnInstanceWhoseOperatorVersionIsGone: the apiserver
// converts every object of a v1beta1 LIST through /convert, so an
// Instance whose OperatorVersion was deleted must still convert, both
// ways and back to the same values, or every v1beta1 read of its
// namespace fails.
func TestConversionOfAnInstanceWhoseOperatorVersionIsGone(t *testing.T) {
	h, err := conversion(opversion.New(fake.NewClientBuilder().WithScheme(Scheme()).Build(), nil))
	require.NoError(t, err)
	stored := `{"apiVersion":"kudo.dev/v1beta2","kind":"Instance","metadata":{"name":"orphan","namespace":"default"},` +
		`"spec":{"operatorVersion":{"name":"gone-1.0"},"parameters":{"name":"3","on":"true","n":3,"big":9007199254740993,"b":true,"obj":{"a":["x",1]}},"planExecution":{"planName":"deploy","uid":"u"}}}`
	convert := func(obj []byte, to string) []byte {
		t.Helper()
		resp := h.Convert(context.Background(), &kube.ConversionRequest{UID: "c", DesiredAPIVersion: to, Objects: []json.RawMessage{obj}})
		require.Equal(t, "Success", resp.Result.Status, resp.Result.Message)
		require.Len(t, resp.ConvertedObjects, 1)
		return resp.ConvertedObjects[0]
	}
	old := convert([]byte(stored), "kudo.dev/v1beta1")
	oldObj, err := params.Decode(nil, old)
	require.NoError(t, err)
	for k, v := range oldObj.(map[string]any)["spec"].(map[string]any)["parameters"].(map[string]any) {
		assert.IsType(t, "", v, "v1beta1 parameter %s is text", k)
	}
	back := convert(old, "kudo.dev/v1beta2")
	want, err := params.Decode(nil, []byte(stored))
	require.NoError(t, err)
	got, err := params.Decode(nil, back)
	require.NoError(t, err)
	assert.Equal(t, want, got, "v1beta2 → v1beta1 → v1beta2 gives the stored object back")

	// A v1beta1 create naming a version that does not exist converts, so
	// that admission can refuse it with spec.operatorVersion.name rather
	// than the apiserver failing with an internal error.
	created := convert([]byte(`{"apiVersion":"kudo.dev/v1beta1","kind":"Instance","metadata":{"name":"new","namespace":"default"},"spec":{"operatorVersion":{"name":"gone-1.0"},"parameters":{"a":"1"}}}`), "kudo.dev/v1beta2")
	assert.Contains(t, string(created), `"apiVersion":"kudo.dev/v1beta2"`)
}

// TestFlags: the production flags exist with their defaults (the
// crd-operator copies them by name), and check refuses lease timings
// client-go would stop on.
func TestFlags(t *testing.T) {
	var o options
	fs := flag.NewFlagSet("operator", flag.ContinueOnError)
	o.bind(fs)
	require.NoError(t, fs.Parse(nil))
	assert.Equal(t, 15*time.Second, o.leaseDuration)
	assert.Equal(t, 10*time.Second, o.renewDeadline)
	assert.Equal(t, 2*time.Second, o.retryPeriod)
	assert.False(t, o.enableHTTP2)
	assert.Greater(t, o.maxConcurrentReconciles, 1)
	assert.Equal(t, int64(128<<20), o.maxBodyInFlight)
	require.NoError(t, o.check())

	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--leader-elect-lease-duration=4s", "--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=1s", "--max-concurrent-reconciles=8", "--enable-http2"}, ""},
		{[]string{"--leader-elect-lease-duration=3s", "--leader-elect-renew-deadline=3s"}, "--leader-elect-lease-duration 3s must be more than --leader-elect-renew-deadline (3s)"},
		{[]string{"--leader-elect-renew-deadline=2s"}, "--leader-elect-renew-deadline 2s must be more than 1.2 × --leader-elect-retry-period (2s)"},
		{[]string{"--leader-elect-retry-period=0s"}, "--leader-elect-retry-period 0s: must be positive"},
		{[]string{"--max-concurrent-reconciles=0"}, "--max-concurrent-reconciles 0: at least 1"},
		{[]string{"--max-body-bytes-in-flight=1048576"}, "--max-body-bytes-in-flight 1048576 is less than the largest body limit 67108864: such a body could never be read"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var o options
			fs := flag.NewFlagSet("operator", flag.ContinueOnError)
			o.bind(fs)
			require.NoError(t, fs.Parse(tc.args))
			if tc.err == "" {
				assert.NoError(t, o.check())
				return
			}
			assert.EqualError(t, o.check(), tc.err)
		})
	}
}

// TestSlowConversionBodiesHoldNoMemory: ten connections that declare a
// 60 MiB body on /convert (within its 64 MiB limit) and send one byte
// held 668 MB of the operator's memory, the conversion handler sizing
// its buffer from the declared length. Through the operator's webhook
// server, its handlers never see a declared length: the heap grows by
// what arrived, not by what was declared.
func TestSlowConversionBodiesHoldNoMemory(t *testing.T) {
	const conns, declared = 10, 60 << 20
	dir := selfSignedDir(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	o := options{webhookHost: "127.0.0.1", webhookPort: port, webhookCertDir: dir, maxBodyInFlight: defaultMaxBodyInFlight}
	mux, err := webhooks(opversion.New(fake.NewClientBuilder().WithScheme(Scheme()).Build(), nil), o.reviews())
	require.NoError(t, err)
	// Count the requests that reached the handlers (which read the body).
	var entered atomic.Int32
	srv := o.webhookServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered.Add(1)
		mux.ServeHTTP(w, r)
	}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Start(ctx) }()
	defer func() {
		cancel()
		assert.NoError(t, <-done)
	}()
	require.Eventually(t, func() bool { return srv.Ready(nil) == nil }, 10*time.Second, 10*time.Millisecond)

	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	var open []net.Conn
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	for range conns {
		c, err := tls.Dial("tcp", srv.ListenAddr().String(), &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // test server
		require.NoError(t, err)
		open = append(open, c)
		_, err = fmt.Fprintf(c, "POST /convert HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", declared)
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool { return entered.Load() == conns }, 20*time.Second, 10*time.Millisecond, "every request reached the body's reading")
	var grown int64
	for range 5 { // the most over a moment of reading
		time.Sleep(20 * time.Millisecond)
		grown = max(grown, int64(heap())-int64(before))
	}
	t.Logf("heap grew by %d KiB for %d connections declaring %d MiB", grown>>10, conns, declared>>20)
	assert.Less(t, grown, int64(16<<20), "the heap grew with declared lengths")
	for _, c := range open {
		c.Close()
	}
	open = nil
}

// selfSignedDir writes a self-signed tls.crt and tls.key for 127.0.0.1.
func selfSignedDir(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "operator-test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:    x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	kder, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.crt"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600))
	return dir
}

// TestLogLevel: info by default, so that the routine status writes
// (debug lines) stay out of the log; --zap-log-level=debug shows them.
func TestLogLevel(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		debug bool
	}{{nil, false}, {[]string{"--zap-log-level=debug"}, true}} {
		var o options
		fs := flag.NewFlagSet("operator", flag.ContinueOnError)
		o.bind(fs)
		require.NoError(t, fs.Parse(tc.args))
		assert.Equal(t, tc.debug, o.zap.Level.Enabled(zapcore.DebugLevel), tc.args)
		assert.True(t, o.zap.Level.Enabled(zapcore.InfoLevel))
	}
}
