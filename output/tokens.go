package output

import "unicode/utf8"

// EstimateTokens returns the estimated token count of s: its Unicode code
// points divided by four, rounded up. It is an estimate, never a tokenizer's
// count; bytes are the hard measure.
func EstimateTokens(s string) int {
	return (utf8.RuneCountInString(s) + 3) / 4
}
