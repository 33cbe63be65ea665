package search

import "strings"

// formIndex answers, in one pass over a text's words, which of a few
// wanted words the text holds, as a wordSet of the text would: a wanted
// word added with addForms is held when one of its forms (itself or a
// stem) is one of a text word's forms (see wordSet.holds); one added with
// add is held when it is a text word or a text word's stem (as
// wordSet.holdsAny reads a synonym's words). The text's own word set is
// never built: a search measures a few intent words against dozens of
// tool texts, and building each text's set (every word and stem in a
// map) was a third of the search's serial work past the legs.
type formIndex struct {
	slots map[string][]int // a form -> the slots it marks
	n     int              // slots in all
	buf   []byte           // scratch for stems that add a letter
	// starts holds the forms' first bytes: a text word and its stems
	// start alike (but for the word "ies", whose "y" is no stem), so a
	// word that starts otherwise marks nothing and is not looked up.
	starts initials
}

// newFormIndex returns an empty index.
func newFormIndex() *formIndex { return &formIndex{slots: make(map[string][]int)} }

// slot returns a new slot number.
func (x *formIndex) slot() int {
	x.n++
	return x.n - 1
}

// add makes form mark slot.
func (x *formIndex) add(form string, slot int) {
	x.slots[form] = append(x.slots[form], slot)
	x.starts.add(form)
}

// addForms makes w and each of its stems mark slot.
func (x *formIndex) addForms(w string, slot int) {
	x.add(w, slot)
	for _, st := range stems(w) {
		x.add(st, slot)
	}
}

// addSynonyms makes the words of each phrase of syns[i], for each i that
// want keeps, mark a slot of their own (one per distinct word, as
// written), and returns each phrase's slots by i and phrase: what allOf
// reads.
func (x *formIndex) addSynonyms(syns [][]string, want func(i int) bool) [][][]int {
	out := make([][][]int, len(syns))
	own := make(map[string]int)
	for i, phrases := range syns {
		if !want(i) {
			continue
		}
		for _, phrase := range phrases {
			var slots []int
			for _, sw := range strings.Fields(phrase) {
				n, ok := own[sw]
				if !ok {
					n = x.slot()
					own[sw] = n
					x.add(sw, n)
				}
				slots = append(slots, n)
			}
			out[i] = append(out[i], slots)
		}
	}
	return out
}

// scan marks in found (of x.n slots) the slots that the words of texts,
// or their stems, fill.
func (x *formIndex) scan(found []bool, texts ...string) {
	if len(x.slots) == 0 {
		return
	}
	var parts []string
	for _, t := range texts {
		for run := range alnumRunSeq(t) {
			parts = appendHumps(parts[:0], run)
			for _, w := range parts {
				if !x.starts.may(w) {
					continue
				}
				x.mark(found, w)
			}
		}
	}
}

// mark marks the slots of w and of each of its stems (as stems returns
// them), allocating nothing for a lookup.
func (x *formIndex) mark(found []bool, w string) {
	x.markForm(found, w)
	for _, suf := range [...]string{"ies", "es", "s"} {
		b, ok := strings.CutSuffix(w, suf)
		if !ok {
			continue
		}
		if suf == "ies" {
			x.buf = append(append(x.buf[:0], b...), 'y')
			x.markBytes(found)
			continue
		}
		x.markForm(found, b)
	}
	for _, suf := range [...]string{"ing", "ed"} {
		if b, ok := strings.CutSuffix(w, suf); ok && runeCountAtLeast(b, minTrigramRunes) {
			x.markForm(found, b)
			x.buf = append(append(x.buf[:0], b...), 'e')
			x.markBytes(found)
			if u, ok := undoubled(b); ok {
				x.markForm(found, u)
			}
		}
	}
}

func (x *formIndex) markForm(found []bool, form string) {
	for _, s := range x.slots[form] {
		found[s] = true
	}
}

// markBytes marks the slots of the form in x.buf; the map lookup of a
// converted []byte does not allocate.
func (x *formIndex) markBytes(found []bool) {
	for _, s := range x.slots[string(x.buf)] {
		found[s] = true
	}
}

// allOf reports whether found holds every slot of one of phrases.
func allOf(found []bool, phrases [][]int) bool {
	for _, slots := range phrases {
		all := true
		for _, s := range slots {
			all = all && found[s]
		}
		if all {
			return true
		}
	}
	return false
}

// runeCountAtLeast reports whether s has n runes or more.
func runeCountAtLeast(s string, n int) bool {
	for range s {
		if n--; n <= 0 {
			return true
		}
	}
	return n <= 0
}
