package encode

import "github.com/paramkit/paramkit/internal/pointer"

// ByKeyOrder returns an Orderer that writes each object's keys in a
// recorded order: order maps the JSON pointer of an object to its keys
// (as document.KeyOrder records them from a source document, or as a
// converter lays them out). Keys of an object that the record does not
// list come after the listed ones, sorted, so the output is stable
// whatever the record holds.
func ByKeyOrder(order map[string][]string) Orderer {
	if order == nil {
		return nil
	}
	return keyOrder{order: order}
}

type keyOrder struct {
	order map[string][]string
	ptr   string
}

func (o keyOrder) Order(keys []string) []string {
	rec, ok := o.order[o.ptr]
	if !ok {
		return keys
	}
	present := make(map[string]bool, len(keys))
	for _, k := range keys {
		present[k] = true
	}
	out := make([]string, 0, len(keys))
	for _, k := range rec {
		if present[k] {
			out = append(out, k)
			delete(present, k)
		}
	}
	for _, k := range keys {
		if present[k] {
			out = append(out, k)
		}
	}
	return out
}

func (o keyOrder) Key(k string) Orderer {
	return keyOrder{order: o.order, ptr: pointer.Append(o.ptr, k)}
}

func (o keyOrder) Elem(i int) Orderer {
	return keyOrder{order: o.order, ptr: pointer.AppendIndex(o.ptr, i)}
}
