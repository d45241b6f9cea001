package document

import "sort"

// KeysInOrder returns the keys of m, the object at ptr, in the source
// order that order (a Doc.Order) records, or sorted where it records none
// (or records other keys: m was changed after reading).
func KeysInOrder(order map[string][]string, ptr string, m map[string]any) []string {
	if ks, ok := order[ptr]; ok && len(ks) == len(m) {
		return ks
	}
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
