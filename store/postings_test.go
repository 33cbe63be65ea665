package store

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestPostingsRoundTrip(t *testing.T) {
	ps := []posting{
		{id: 1, counts: [5]uint32{1, 0, 0, 0, 0}},
		{id: 7, counts: [5]uint32{0, 3, 0, 200, 1}},
		{id: 1 << 40, counts: [5]uint32{0, 0, 1, 0, 0}},
	}
	got, err := decodePostings(nil, encodePostings(ps))
	if err != nil || !slices.Equal(got, ps) {
		t.Fatalf("round trip: %v, %v; want %v", got, err, ps)
	}
	huge := binary.AppendUvarint([]byte{1, 0x01}, maxTokenCount+1)
	for _, bad := range [][]byte{{0x80}, {1}, {1, 0x02}, {1, 0x01, 0x80}, huge} {
		if _, err := decodePostings(nil, bad); !errors.Is(err, errPostings) {
			t.Errorf("decodePostings(%v) = %v, want errPostings", bad, err)
		}
	}
}

// FuzzDecodePostings feeds damaged blobs to the decoder: it returns an
// error or postings that encode back to a blob decoding alike.
func FuzzDecodePostings(f *testing.F) {
	f.Add(encodePostings([]posting{{id: 3, counts: [5]uint32{1, 2, 0, 0, 9}}}))
	f.Add([]byte{0x80, 0x01, 0x1f, 1, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, blob []byte) {
		ps, err := decodePostings(nil, blob)
		if err != nil {
			return
		}
		again, err := decodePostings(nil, encodePostings(ps))
		if err != nil || !slices.Equal(again, ps) {
			t.Fatalf("%v: decoded %v, again %v (%v)", blob, ps, again, err)
		}
	})
}

func TestFTSAverages(t *testing.T) {
	// 300 rows (a two-byte varint), columns of 5 and 1,000 tokens.
	rows, avg, err := ftsAverages([]byte{0x82, 0x2c, 5, 0x87, 0x68})
	if err != nil || rows != 300 || avg != 1005.0/300 {
		t.Fatalf("ftsAverages = %d, %v, %v; want 300, %v", rows, avg, err, 1005.0/300)
	}
	if _, _, err := ftsAverages([]byte{0x82}); !errors.Is(err, errPostings) {
		t.Errorf("short record: %v, want errPostings", err)
	}
}

func TestKthLargest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		n := 1 + r.IntN(60)
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(r.IntN(8)) // many ties
		}
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		slices.Reverse(sorted)
		k := 1 + r.IntN(n)
		if got := kthLargest(slices.Clone(xs), k); got != sorted[k-1] {
			t.Fatalf("kthLargest(%v, %d) = %v, want %v", xs, k, got, sorted[k-1])
		}
	}
}
