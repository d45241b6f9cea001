package testcert_test

import (
	"crypto/tls"
	"fmt"
	"os"

	"github.com/paramkit/paramkit/examples/internal/testcert"
)

func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "testcert")
	defer os.RemoveAll(dir)
	certFile, keyFile, pool, err := testcert.Write(dir, "webhook")
	if err != nil {
		panic(err)
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	fmt.Println(err == nil, len(pair.Certificate), pool != nil)
	// Output: true 1 true
}
