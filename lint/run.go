package lint

import (
	"fmt"
	"sort"
	"sync"

	"github.com/paramkit/paramkit/schema"
)

var (
	registryMu sync.RWMutex
	registry   = map[string]*Set{}
)

// Register makes a rule set available by name (for --rules). Registering a
// name twice replaces the earlier set.
func Register(s *Set) {
	registryMu.Lock()
	defer registryMu.Unlock()
	registry[s.Name] = s
}

// Lookup returns the registered set of that name.
func Lookup(name string) (*Set, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	s, ok := registry[name]
	return s, ok
}

// Sets returns the registered sets sorted by name.
func Sets() []*Set {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]*Set, 0, len(registry))
	for _, s := range registry {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Run runs every rule of the sets over a schema document and returns the
// findings sorted by pointer. s is the compiled schema, or nil when the
// document does not compile (rules then see only doc). A rule that panics
// becomes an error finding instead of taking the caller down.
func Run(s *schema.Schema, doc any, sets ...*Set) []Finding {
	findings := []Finding{}
	for _, set := range sets {
		for _, r := range set.Rules {
			p := &Pass{Schema: s, Doc: doc, Rule: r, findings: &findings}
			func() {
				defer func() {
					if v := recover(); v != nil {
						p.ReportSeverity(Error, "", fmt.Sprintf("rule crashed: %v (please report this)", v))
					}
				}()
				r.Run(p)
			}()
		}
	}
	sortFindings(findings)
	return findings
}
