// Package opversion keeps the compiled operator versions of a
// controller-runtime operator: one kudo.OperatorVersion per
// OperatorVersion object, compiled once per change of the object and
// shared by the admission handlers, the conversion webhook and the
// reconciler.
//
// The objects come from a client.Reader, normally the manager's cached
// client, so that a look-up reads the informer's copy, and from the
// apiserver only when that copy has none: the informer learns of an
// OperatorVersion a moment after it is created, and an Instance created
// right after it (kubectl apply of both) must not be refused for it. An entry is keyed by namespace and name and remembers the
// resourceVersion it was compiled from: a look-up that finds another
// resourceVersion compiles again, so a changed OperatorVersion is never
// served stale, and Forget (called when the informer reports a change or
// a deletion) frees what is no longer needed.
package opversion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/examples/operator/api/v1beta2"
	"github.com/paramkit/paramkit/examples/operator/kudoconvert"
)

// Cache compiles OperatorVersion objects once per resourceVersion. It is
// safe for concurrent use; its zero value is not usable: use New.
type Cache struct {
	reader, live client.Reader

	mu      sync.Mutex
	entries map[types.NamespacedName]*entry
	// compiles counts compilations, for tests and metrics.
	compiles atomic.Int64
}

type entry struct {
	mu    sync.Mutex // serialises compiling this key
	state atomic.Pointer[compiled]
}

// compiled is one immutable answer for a key.
type compiled struct {
	resourceVersion string
	ov              *kudo.OperatorVersion
	err             error
}

// New returns a cache reading OperatorVersions (kudo.dev/v1beta2) through
// reader (the manager's client), and through live (the manager's
// GetAPIReader(), or nil for none) when reader does not find one.
func New(reader, live client.Reader) *Cache {
	return &Cache{reader: reader, live: live, entries: map[types.NamespacedName]*entry{}}
}

// Get returns the compiled operator version namespace/name. An
// OperatorVersion that does not exist gives an error wrapping
// kudoconvert.ErrSchemaNotFound (a *kudoconvert.NotFoundError); one whose
// schema cannot be used gives the compile error (a schema.ErrorList's Err,
// pointers into the object), remembered until the object changes.
func (c *Cache) Get(ctx context.Context, namespace, name string) (*kudo.OperatorVersion, error) {
	key := types.NamespacedName{Namespace: namespace, Name: name}
	if name == "" {
		return nil, &kudoconvert.NotFoundError{Name: name, Reason: "the Instance names no operator version (spec.operatorVersion.name)"}
	}
	var obj v1beta2.OperatorVersion
	err := c.reader.Get(ctx, key, &obj)
	if apierrors.IsNotFound(err) && c.live != nil {
		err = c.live.Get(ctx, key, &obj)
	}
	if err != nil {
		if apierrors.IsNotFound(err) {
			c.Forget(namespace, name)
			return nil, &kudoconvert.NotFoundError{Name: name, Reason: fmt.Sprintf("no OperatorVersion %q in namespace %q", name, namespace)}
		}
		return nil, fmt.Errorf("reading OperatorVersion %s: %w", key, err)
	}
	e := c.entry(key)
	if st := e.state.Load(); st != nil && st.resourceVersion == obj.ResourceVersion {
		return st.ov, st.err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if st := e.state.Load(); st != nil && st.resourceVersion == obj.ResourceVersion {
		return st.ov, st.err
	}
	st := &compiled{resourceVersion: obj.ResourceVersion}
	st.ov, st.err = Compile(&obj)
	if st.err != nil {
		st.err = fmt.Errorf("OperatorVersion %s: %w", key, st.err)
	}
	c.compiles.Add(1)
	e.state.Store(st)
	return st.ov, st.err
}

// Resolve is Get as a kudoconvert.Resolver, so that paramkit's
// conversion handler finds schemas through the cache.
func (c *Cache) Resolve(ctx context.Context, namespace, name string) (*kudo.OperatorVersion, error) {
	return c.Get(ctx, namespace, name)
}

// Forget drops what the cache holds for namespace/name. Getting it again
// compiles it again; call it when the object changes or goes away.
func (c *Cache) Forget(namespace, name string) {
	c.mu.Lock()
	delete(c.entries, types.NamespacedName{Namespace: namespace, Name: name})
	c.mu.Unlock()
}

// Compiles is how many times the cache compiled an OperatorVersion.
func (c *Cache) Compiles() int64 { return c.compiles.Load() }

func (c *Cache) entry(key types.NamespacedName) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[key]
	if e == nil {
		e = &entry{}
		c.entries[key] = e
	}
	return e
}

// Compile builds the operator version of one OperatorVersion object. A
// typed object has no apiVersion or kind after a client's Get: its JSON
// is identified by its shape (kudo.Load). The schema's text is the one
// the apiserver holds, so numbers in it stay exact.
func Compile(obj *v1beta2.OperatorVersion) (*kudo.OperatorVersion, error) {
	if obj == nil {
		return nil, errors.New("opversion: Compile of a nil OperatorVersion")
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return kudo.Load(obj.Name, data)
}
