// Package propbag names the property bag of convert/migrate: the
// reserved top-level key of a values document under which a lossless
// conversion keeps what the version it converts to cannot hold (see
// convert/migrate's package documentation). kube moves it to an
// annotation and back.
package propbag

// Key is the property bag's key.
const Key = "x-paramkit-bag"
