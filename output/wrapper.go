package output

// wrappedList reports the path to the one big list an object wraps, as in
// {"total":500,"items":[...]} (path ["items"]) or GraphQL's
// {"data":{"issues":{"nodes":[...]}}} (path ["data","issues","nodes"]). From
// the object down, each step is the largest member, holding at least half
// of its object's compact JSON bytes, until a non-empty array.
func wrappedList(obj object) ([]string, bool) {
	var path []string
	for {
		key, val, ok := dominantMember(obj)
		if !ok {
			return nil, false
		}
		path = append(path, key)
		switch v := val.(type) {
		case []any:
			return path, len(v) > 0
		case object:
			obj = v
		default:
			return nil, false
		}
	}
}

// dominantMember returns the largest member of obj when it holds at least
// half of obj's compact JSON bytes.
func dominantMember(obj object) (string, any, bool) {
	best, bestSize, total := -1, 0, 0
	var buf []byte
	for i, m := range obj {
		buf = appendJSON(buf[:0], m.val)
		size := len(buf) + len(m.key)
		total += size
		if size > bestSize {
			best, bestSize = i, size
		}
	}
	if best < 0 || 2*bestSize < total {
		return "", nil, false
	}
	return obj[best].key, obj[best].val, true
}
