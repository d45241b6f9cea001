package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/examples/internal/testcert"
	"github.com/paramkit/paramkit/kube"
)

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata/webhook/golden", name+".request.json"))
	require.NoError(t, err)
	return b
}

func TestHealthz(t *testing.T) {
	ts := startServer(t, testHandler(t, nil), nil)
	resp, err := ts.Client.Get(ts.URL + "/healthz")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "ok\n", string(body))
}

func TestHTTPSOnly(t *testing.T) {
	ts := startServer(t, testHandler(t, nil), nil)
	addr := strings.TrimPrefix(ts.URL, "https://")

	t.Run("TLS 1.1 is refused", func(t *testing.T) {
		conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: ts.Pool, MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS11})
		if err == nil {
			conn.Close()
		}
		require.Error(t, err)
	})
	t.Run("TLS 1.2 is accepted", func(t *testing.T) {
		conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: ts.Pool, MaxVersion: tls.VersionTLS12})
		require.NoError(t, err)
		assert.Equal(t, uint16(tls.VersionTLS12), conn.ConnectionState().Version)
		conn.Close()
	})
	t.Run("plain HTTP gets no review", func(t *testing.T) {
		resp, err := http.Post("http://"+addr+"/validate", "application/json", bytes.NewReader(readGolden(t, "validate-create-valid")))
		if err == nil {
			defer resp.Body.Close()
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		}
	})
}

func TestBadInput(t *testing.T) {
	ts := startServer(t, testHandler(t, nil), nil)
	cases := []struct {
		name, path, body string
		code             int
		msg              string
	}{
		{"not JSON", "/validate", "{nope", 400, "the body is not JSON"},
		{"empty body", "/mutate", "", 400, "the body is not JSON"},
		{"wrong kind", "/validate", `{"apiVersion":"admission.k8s.io/v1","kind":"ConversionReview","request":{"uid":"x"}}`, 400, "expected an AdmissionReview"},
		{"conversion review on /validate", "/validate", string(readGolden(t, "convert-list")), 400, "expected an AdmissionReview"},
		{"admission review on /convert", "/convert", string(readGolden(t, "validate-create-valid")), 400, "expected a ConversionReview"},
		{"no request", "/validate", `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}`, 400, "has no request"},
		{"no uid", "/mutate", `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"operation":"CREATE"}}`, 400, "has no uid"},
		{"wrong field type", "/validate", `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":7}}`, 400, `field "request.uid" must be string`},
		{"no desired version", "/convert", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","objects":[]}}`, 400, "has no desiredAPIVersion"},
		{"trailing garbage", "/convert", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"kudo.dev/v1beta2","objects":[]}} x`, 400, "not JSON"},
		{"bad timeout", "/convert?timeout=soon", `{}`, 400, "?timeout=soon is not a positive duration"},
		{"unknown endpoint", "/admit", `{}`, 404, "no endpoint /admit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, body := ts.post(t, c.path, []byte(c.body))
			assert.Equal(t, c.code, code)
			assert.Contains(t, string(body), c.msg)
		})
	}
	t.Run("GET is not allowed", func(t *testing.T) {
		resp, err := ts.Client.Get(ts.URL + "/validate")
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
		assert.Equal(t, "POST", resp.Header.Get("Allow"))
	})
}

// bigReview is an admission review padded past size bytes.
func bigReview(size int) []byte {
	pad := strings.Repeat("x", size)
	return []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","operation":"CREATE",` +
		`"kind":{"group":"kudo.dev","version":"v1beta2","kind":"Instance"},"object":{"apiVersion":"kudo.dev/v1beta2","kind":"Instance",` +
		`"metadata":{"name":"big","annotations":{"pad":"` + pad + `"}},"spec":{"operatorVersion":{"name":"kep-0.2.0"}}}}}`)
}

func bigConversion(objects, pad int) []byte {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"kudo.dev/v1beta2","objects":[`)
	for i := 0; i < objects; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"apiVersion":"kudo.dev/v1beta1","kind":"Instance","metadata":{"name":"zk-%d","namespace":"default","annotations":{"pad":"%s"}},"spec":{"operatorVersion":{"name":"zookeeper-0.3.0"},"parameters":{"NODE_COUNT":"%d","ARRAY_PARAM":"[a,b]"}}}`, i, strings.Repeat("p", pad), i)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

func TestBodyLimits(t *testing.T) {
	t.Run("defaults", func(t *testing.T) {
		h := testHandler(t, nil)
		assert.Equal(t, int64(3<<20), h.opts.MaxReviewBytes)
		assert.Equal(t, int64(64<<20), h.opts.MaxConversionBytes)
		ts := startServer(t, h, nil)
		code, body := ts.post(t, "/validate", bigReview(3<<20))
		assert.Equal(t, http.StatusRequestEntityTooLarge, code)
		assert.Contains(t, string(body), "larger than the 3145728 bytes (3 MiB) /validate accepts")
	})

	// Smaller limits keep the rest fast under the race detector.
	ts := startServer(t, testHandler(t, func(o *Options) { o.MaxReviewBytes = 64 << 10; o.MaxConversionBytes = 256 << 10 }), nil)
	t.Run("admission review under the limit is read", func(t *testing.T) {
		code, body := ts.post(t, "/mutate", bigReview(60<<10))
		require.Equal(t, 200, code, string(body[:min(len(body), 300)]))
		assert.Contains(t, string(body), `"allowed":true`)
	})
	t.Run("admission review over the limit is refused", func(t *testing.T) {
		code, body := ts.post(t, "/validate", bigReview(64<<10))
		assert.Equal(t, http.StatusRequestEntityTooLarge, code)
		assert.Contains(t, string(body), "larger than the 65536 bytes (64 KiB) /validate accepts")
	})
	t.Run("without Content-Length too", func(t *testing.T) {
		pr, pw := io.Pipe()
		go func() {
			_, _ = pw.Write(bigReview(100 << 10))
			pw.Close()
		}()
		req, _ := http.NewRequest("POST", ts.URL+"/mutate", pr)
		resp, err := ts.Client.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
		assert.Contains(t, string(body), "(64 KiB) /mutate accepts")
	})
	t.Run("a conversion review has its own limit", func(t *testing.T) {
		code, body := ts.post(t, "/convert", bigConversion(12, 12<<10)) // about 150 KiB
		require.Equal(t, 200, code)
		var r kube.ConversionReview
		require.NoError(t, json.Unmarshal(body, &r))
		assert.Equal(t, "Success", r.Response.Result.Status, r.Response.Result.Message)
		assert.Len(t, r.Response.ConvertedObjects, 12)
		code, body = ts.post(t, "/convert", bigConversion(24, 12<<10))
		assert.Equal(t, http.StatusRequestEntityTooLarge, code)
		assert.Contains(t, string(body), "(256 KiB) /convert accepts")
	})
}

// TestSlowClientsTimeOut: a client that stalls is cut off by the server's
// timeouts, and the server goes on serving others.
//
// The timeouts are short so that the test is quick, and so a loaded
// machine may be slower than they are at any step: net/http bounds the TLS
// handshake by the shortest timeout, so a client can be cut off before it
// has sent a byte of its request. That is the behaviour under test too (a
// client too slow for the timeouts is closed), so every client-side step
// accepts the server's close (EOF, reset, broken pipe); what fails is the
// connection staying open far beyond the timeouts, or any other error.
// Nothing here depends on the machine being fast enough.
func TestSlowClientsTimeOut(t *testing.T) {
	ts := startServer(t, testHandler(t, nil), func(s *Server) {
		s.ReadHeaderTimeout = 200 * time.Millisecond
		s.ReadTimeout = 400 * time.Millisecond
	})
	addr := strings.TrimPrefix(ts.URL, "https://")
	// stall sends request (an incomplete one) and returns what the server
	// answered before it closed the connection ("" when it closed it
	// before the request was out, or without a word).
	stall := func(t *testing.T, request string) string {
		conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: ts.Pool, NextProtos: []string{"http/1.1"}})
		if err != nil {
			requireClosedByServer(t, err, "handshake")
			return ""
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, request); err != nil {
			requireClosedByServer(t, err, "writing the request")
			return ""
		}
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
		got, err := io.ReadAll(conn)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("the server kept a stalled connection open")
		}
		if err != nil {
			requireClosedByServer(t, err, "reading the answer")
		}
		return string(got)
	}
	t.Run("stalled headers", func(t *testing.T) {
		stall(t, "POST /validate HTTP/1.1\r\nHost: x\r\n")
	})
	t.Run("stalled body", func(t *testing.T) {
		got := stall(t, "POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"apiVersion\":")
		if got != "" {
			assert.Contains(t, got, "408 Request Timeout")
		}
	})
	t.Run("the server still answers", func(t *testing.T) {
		// A request the loaded machine sends too slowly for the short
		// timeouts is closed like a stalled one: try again on a new
		// connection, as a client does. The server must answer one.
		review := readGolden(t, "validate-create-valid")
		for attempt := 1; ; attempt++ {
			client := newClient(ts.Pool)
			resp, err := client.Post(ts.URL+"/validate", "application/json", bytes.NewReader(review))
			client.CloseIdleConnections()
			switch {
			case err == nil && resp.StatusCode == http.StatusRequestTimeout:
				resp.Body.Close() // the body came too late for the timeout
				err = fmt.Errorf("answered %s", resp.Status)
			case err == nil:
				resp.Body.Close()
				assert.Equal(t, 200, resp.StatusCode)
				return
			default:
				requireClosedByServer(t, err, "a complete request")
			}
			if attempt == 50 {
				t.Fatalf("50 complete requests in a row were closed before an answer: %v", err)
			}
		}
	})
}

// requireClosedByServer fails unless err is the peer closing the
// connection (EOF, reset, broken pipe), possibly wrapped by the client.
func requireClosedByServer(t *testing.T, err error, during string) {
	t.Helper()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		t.Logf("%s: the server closed the connection first (%v): the machine was slower than the test's timeouts", during, err)
		return
	}
	t.Fatalf("%s: %v (not the server closing the connection)", during, err)
}

type panicResolver struct{}

func (panicResolver) Resolve(context.Context, string, string) (*kudo.OperatorVersion, error) {
	panic("resolver exploded")
}

func TestPanicBecomesDenial(t *testing.T) {
	h, err := NewHandler(Options{Resolver: panicResolver{}})
	require.NoError(t, err)
	ts := startServer(t, h, nil)
	for _, path := range []string{"/validate", "/mutate"} {
		code, body := ts.post(t, path, readGolden(t, "validate-create-valid"))
		require.Equal(t, 200, code)
		var r kube.AdmissionReview
		require.NoError(t, json.Unmarshal(body, &r))
		assert.Equal(t, "a1000000-0000-4000-8000-000000000001", r.Response.UID)
		assert.False(t, r.Response.Allowed)
		assert.Equal(t, int32(500), r.Response.Result.Code)
		assert.Contains(t, r.Response.Result.Message, "internal error while checking Instance default/my-cluster: resolver exploded")
	}
	code, body := ts.post(t, "/convert", readGolden(t, "convert-instance-up"))
	require.Equal(t, 200, code)
	var c kube.ConversionReview
	require.NoError(t, json.Unmarshal(body, &c))
	assert.Equal(t, "Failure", c.Response.Result.Status)
	assert.Contains(t, c.Response.Result.Message, "internal error while converting to kudo.dev/v1beta2: resolver exploded")
	assert.Equal(t, "c1000000-0000-4000-8000-000000000001", c.Response.UID)
	resp, err := ts.Client.Get(ts.URL + "/healthz")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode, "the server survives")
}

func TestReviewTimeout(t *testing.T) {
	ts := startServer(t, testHandler(t, nil), nil)
	// Past the deadline, reading the review stops: a clear failure.
	code, body := ts.post(t, "/convert?timeout=1ns", bigConversion(3, 10))
	require.Equal(t, http.StatusGatewayTimeout, code, string(body))
	assert.Contains(t, string(body), "the review's deadline passed")
	// A deadline that passes while converting fails the review, naming how far it got.
	review, err := kube.DecodeReview[kube.ConversionReview](context.Background(), bigConversion(3, 10))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	c := testHandler(t, nil).Convert(ctx, review.Request)
	assert.Equal(t, "Failure", c.Result.Status)
	assert.Contains(t, c.Result.Message, "the review's deadline passed after converting 0 of 3 objects to kudo.dev/v1beta2: context deadline exceeded")
	assert.Equal(t, int32(http.StatusGatewayTimeout), c.Result.Code)
	assert.Equal(t, "Timeout", c.Result.Reason)
}

// TestConversionTimeoutHonouredThroughTheServer: a deadline that passes
// while the schema is looked up (a schema source that hangs) answers the
// conversion review as admission answers it (TestTimeoutHonouredThroughTheServer):
// code 504, reason Timeout, not a plain failure.
func TestConversionTimeoutHonouredThroughTheServer(t *testing.T) {
	ts := startServer(t, testHandler(t, func(o *Options) { o.Resolver = blockingResolver }), nil)
	code, out := ts.post(t, "/convert?timeout=1s", bigConversion(1, 1))
	require.Equal(t, http.StatusOK, code, "%s", out)
	var r kube.ConversionReview
	require.NoError(t, json.Unmarshal(out, &r), "%s", out)
	require.NotNil(t, r.Response, "%s", out)
	assert.Equal(t, "Failure", r.Response.Result.Status, "%s", out)
	assert.Equal(t, int32(http.StatusGatewayTimeout), r.Response.Result.Code, "a deadline hit while looking up the schema is a timeout: %s", out)
	assert.Equal(t, "Timeout", r.Response.Result.Reason)
	assert.Contains(t, r.Response.Result.Message, "deadline exceeded")
}

func TestReviewVersionIsEchoed(t *testing.T) {
	ts := startServer(t, testHandler(t, nil), nil)
	req := strings.Replace(string(readGolden(t, "validate-create-valid")), "admission.k8s.io/v1", "admission.k8s.io/v1beta1", 1)
	code, body := ts.post(t, "/validate", []byte(req))
	require.Equal(t, 200, code)
	var r kube.AdmissionReview
	require.NoError(t, json.Unmarshal(body, &r))
	assert.Equal(t, "admission.k8s.io/v1beta1", r.APIVersion)
	assert.Equal(t, "AdmissionReview", r.Kind)
}

func TestDryRunChangesNothingOutsideTheResponse(t *testing.T) {
	var mu sync.Mutex
	var seen []Decision
	h := testHandler(t, func(o *Options) {
		o.OnAdmission = func(_ context.Context, d Decision) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, d)
		}
	})
	ts := startServer(t, h, nil)
	_, dry := ts.post(t, "/validate", readGolden(t, "validate-create-dry-run"))
	mu.Lock()
	assert.Empty(t, seen, "a dry run reaches no hook")
	mu.Unlock()
	_, wet := ts.post(t, "/validate", readGolden(t, "validate-create-valid"))
	mu.Lock()
	require.Len(t, seen, 1)
	assert.Equal(t, "deploy", seen[0].Plan)
	assert.False(t, seen[0].Mutating)
	mu.Unlock()
	// Apart from the uid, the dry run got the same answer.
	assert.Equal(t, strings.Replace(string(dry), "000000000002", "000000000001", 1), string(wet))
}

func TestCertificateReload(t *testing.T) {
	old := certRecheckInterval
	certRecheckInterval = 0
	t.Cleanup(func() { certRecheckInterval = old })
	ts := startServer(t, testHandler(t, nil), nil)
	addr := strings.TrimPrefix(ts.URL, "https://")
	peer := func() string {
		conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // the test reads the served certificate
		require.NoError(t, err)
		defer conn.Close()
		return conn.ConnectionState().PeerCertificates[0].Subject.CommonName
	}
	assert.Equal(t, "webhook-test", peer())

	// A broken pair (new certificate, old key) is ignored.
	certPEM, keyPEM, _, err := testcert.Generate("rotated")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(ts.Server.CertFile, certPEM, 0o600))
	assert.Equal(t, "webhook-test", peer(), "a certificate that does not match its key is not served")

	// Once the key matches, the new certificate is served.
	require.NoError(t, os.WriteFile(ts.Server.KeyFile, keyPEM, 0o600))
	assert.Equal(t, "rotated", peer())
}

func TestServerNeedsCertificate(t *testing.T) {
	s := &Server{Addr: "127.0.0.1:0", Handler: http.NotFoundHandler()}
	err := s.ListenAndServe(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "HTTPS only")
	s = &Server{Addr: "127.0.0.1:0", Handler: http.NotFoundHandler(), CertFile: "nope.pem", KeyFile: "nope.key"}
	err = s.ListenAndServe(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nope.pem")
}

func TestHTTP11Pipelining(t *testing.T) {
	// Two reviews on one kept-alive HTTP/1.1 connection, as the apiserver
	// reuses connections.
	ts := startServer(t, testHandler(t, nil), nil)
	conn, err := tls.Dial("tcp", strings.TrimPrefix(ts.URL, "https://"), &tls.Config{RootCAs: ts.Pool, NextProtos: []string{"http/1.1"}})
	require.NoError(t, err)
	defer conn.Close()
	r := bufio.NewReader(conn)
	for i := 0; i < 2; i++ {
		body := readGolden(t, "mutate-create-defaults")
		fmt.Fprintf(conn, "POST /mutate?timeout=10s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
		_, err = conn.Write(body)
		require.NoError(t, err)
		resp, err := http.ReadResponse(r, nil)
		require.NoError(t, err)
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode)
		assert.Contains(t, string(out), `"patchType":"JSONPatch"`)
	}
}
