package demo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// field is one key and value of a [record].
type field struct {
	key   string
	value any
}

// record is a JSON object that keeps its keys in the order they were added,
// so answers read like a real service's.
type record []field

// MarshalJSON writes the fields in order.
func (r record) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range r {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshal(f.key)
		if err != nil {
			return nil, err
		}
		v, err := marshal(f.value)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", f.key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// set replaces the value of key, or adds the field when it is absent.
func (r record) set(key string, value any) record {
	for i := range r {
		if r[i].key == key {
			r[i].value = value
			return r
		}
	}
	return append(r, field{key, value})
}

// marshal is json.Marshal without HTML escaping, so that text arrives as
// it was sent ("<" stays "<").
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// withInternals appends the bookkeeping fields real services leak into their
// answers, derived from the record's kind and index.
func withInternals(r record, kind string, i int) record {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d", kind, i))
	created := baseTime.Add(timeStep * time.Duration(i))
	return append(r,
		field{"_id", hex.EncodeToString(sum[:12])},
		field{"__v", i % 3},
		field{"created_at", created.Format(time.RFC3339)},
		field{"updated_at", created.Add(3*time.Hour + 17*time.Minute).Format(time.RFC3339)},
		field{"hash", hex.EncodeToString(sum[12:28])},
		field{"label_ids", []string{fmt.Sprintf("lbl_%03d", i%17), fmt.Sprintf("lbl_%03d", 100+i%5)}},
	)
}
