package kube

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// echo answers with the length of the body it read and the Content-Length
// it was given.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	fmt.Fprintf(w, "read %d, Content-Length %d", len(b), r.ContentLength)
})

func post(t *testing.T, url string, body io.Reader, length int64) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest("POST", url, body)
	require.NoError(t, err)
	req.ContentLength = length
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(out)), resp.Header
}

func TestBodyBudgetLimits(t *testing.T) {
	b := &BodyBudget{Bytes: 1 << 20}
	srv := httptest.NewServer(b.Limit(64<<10, echo))
	defer srv.Close()
	cases := []struct {
		name   string
		size   int
		length int64 // -1: chunked
		code   int
		answer string
	}{
		{"empty", 0, 0, 200, "read 0, Content-Length 0"},
		{"small", 100, 100, 200, "read 100, Content-Length 100"},
		{"small, chunked", 100, -1, 200, "read 100, Content-Length 100"},
		{"at the limit", 64 << 10, 64 << 10, 200, "read 65536, Content-Length 65536"},
		{"at the limit, chunked", 64 << 10, -1, 200, "read 65536, Content-Length 65536"},
		{"over the limit", 64<<10 + 1, 64<<10 + 1, 413, "the request body is larger than the 65536 bytes (64 KiB) / accepts"},
		{"over the limit, chunked", 200 << 10, -1, 413, "the request body is larger than the 65536 bytes (64 KiB) / accepts"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body io.Reader = bytes.NewReader(bytes.Repeat([]byte("x"), c.size))
			if c.length < 0 {
				body = io.MultiReader(body) // hides the length: sent chunked
			}
			code, answer, _ := post(t, srv.URL, body, c.length)
			assert.Equal(t, c.code, code)
			assert.Equal(t, c.answer, answer)
			assert.Zero(t, b.used.Load(), "budget held after the request")
		})
	}
}

// hold is a handler that blocks until release is closed, telling entered
// when it runs.
func hold(entered chan<- struct{}, release <-chan struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
		echo.ServeHTTP(w, r)
	})
}

func TestBodyBudgetIsSharedAndAnswersAtOnce(t *testing.T) {
	b := &BodyBudget{Bytes: 256 << 10}
	entered, release := make(chan struct{}, 1), make(chan struct{})
	srv := httptest.NewServer(b.Limit(200<<10, hold(entered, release)))
	defer srv.Close()
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free() // before srv.Close, which waits for the held handler

	first := make(chan int, 1)
	go func() {
		code, _, _ := post(t, srv.URL, bytes.NewReader(make([]byte, 150<<10)), 150<<10)
		first <- code
	}()
	<-entered // the first body is held
	assert.Equal(t, int64(150<<10+1), b.used.Load(), "the budget holds the bytes read (and one to see the end)")

	code, answer, header := post(t, srv.URL, bytes.NewReader(make([]byte, 150<<10)), 150<<10)
	assert.Equal(t, http.StatusTooManyRequests, code)
	assert.Equal(t, "1", header.Get("Retry-After"))
	assert.Contains(t, answer, "retry later")

	free()
	assert.Equal(t, 200, <-first)
	assert.Zero(t, b.used.Load())
	code, answer, _ = post(t, srv.URL, bytes.NewReader(make([]byte, 150<<10)), 150<<10)
	assert.Equal(t, 200, code, "the budget is free again")
	assert.Equal(t, "read 153600, Content-Length 153600", answer)
}

// A declared length costs nothing until bytes come: a request that
// declares 64 MiB and sends 10 bytes holds the budget of a small buffer.
func TestBodyBudgetIgnoresTheDeclaredLength(t *testing.T) {
	b := &BodyBudget{Bytes: 1 << 20, ReadTimeout: 5 * time.Second}
	srv := httptest.NewServer(b.Limit(64<<20, echo))
	defer srv.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 67108864\r\n\r\n0123456789")
	require.NoError(t, err)
	require.Eventually(t, func() bool { return b.used.Load() > 0 }, 5*time.Second, time.Millisecond)
	assert.LessOrEqual(t, b.used.Load(), int64(firstChunk), "budget held by a request that sent 10 bytes")

	// Others are served meanwhile, within what is left of the budget.
	code, answer, _ := post(t, srv.URL, strings.NewReader("hello"), 5)
	assert.Equal(t, 200, code)
	assert.Equal(t, "read 5, Content-Length 5", answer)
}

func TestBodyBudgetSlowBodyTimesOut(t *testing.T) {
	b := &BodyBudget{ReadTimeout: 200 * time.Millisecond}
	srv := httptest.NewServer(b.Limit(1<<20, echo))
	defer srv.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\":")
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	got, err := io.ReadAll(conn) // the server answers and closes
	require.NoError(t, err, "the server keeps the connection of a stalled body open")
	assert.Contains(t, string(got), "408 Request Timeout")
	assert.Contains(t, string(got), "the request body did not arrive within 200ms")
	assert.Zero(t, b.used.Load())
}

// The deadline is lifted once the body is in: a handler that takes longer
// than ReadTimeout still answers on a request that is not canceled.
func TestBodyBudgetDeadlineEndsWithTheBody(t *testing.T) {
	b := &BodyBudget{ReadTimeout: 100 * time.Millisecond}
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(300 * time.Millisecond):
			echo.ServeHTTP(w, r)
		case <-r.Context().Done():
			http.Error(w, "canceled", 500)
		}
	})
	srv := httptest.NewServer(b.Limit(1<<20, slow))
	defer srv.Close()
	code, answer, _ := post(t, srv.URL, strings.NewReader("hello"), 5)
	assert.Equal(t, 200, code)
	assert.Equal(t, "read 5, Content-Length 5", answer)
}

func TestBodyBudgetWithoutABody(t *testing.T) {
	b := &BodyBudget{}
	srv := httptest.NewServer(b.Limit(10, echo))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	require.NoError(t, err)
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "read 0, Content-Length 0", string(out))
}

func TestDrainingBodyLetsGo(t *testing.T) {
	d := &drainingBody{b: []byte("hello")}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(d)
	require.NoError(t, err)
	assert.Equal(t, int64(5), n)
	assert.Nil(t, d.b, "the body is let go once read")
	d = &drainingBody{b: []byte("hello")}
	n, err = io.Copy(io.Discard, d)
	require.NoError(t, err)
	assert.Equal(t, int64(5), n)
	assert.Nil(t, d.b)
}

// Wrap each handler that reads a request body with one budget shared by
// the whole server: here an admission path with a 3 MiB limit and a
// conversion path with a 64 MiB one, 128 MiB of bodies at once. With
// controller-runtime, register the wrapped handlers the same way:
// mgr.GetWebhookServer().Register("/convert", budget.Limit(64<<20, h)).
func ExampleBodyBudget() {
	review := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body) // the whole body, already read
		fmt.Fprintf(w, "%d bytes", len(body))
	})
	budget := &BodyBudget{Bytes: 128 << 20, ReadTimeout: 30 * time.Second}
	mux := http.NewServeMux()
	mux.Handle("/validate", budget.Limit(3<<20, review))
	mux.Handle("/convert", budget.Limit(64<<20, review))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, size := range []int{1000, 4 << 20} {
		resp, err := http.Post(srv.URL+"/validate", "application/json", bytes.NewReader(make([]byte, size)))
		if err != nil {
			fmt.Println(err)
			return
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, strings.TrimSpace(string(out)))
	}
	// Output:
	// 200 1000 bytes
	// 413 the request body is larger than the 3145728 bytes (3 MiB) /validate accepts
}
