package catalog

import (
	"strings"
	"unicode"
)

// Words splits a name (an identifier, a package path, a URL) into its
// lower-case words at case changes, digits and punctuation:
// "chargePaymentV2" -> charge, payment, v2; "send_email" -> send, email.
// Name rules match whole words, so "payload" is not "pay" and "retrieve" is
// not "retry".
func Words(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0:
			prev := cur[len(cur)-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// a new word starts at an upper case letter after a lower case
			// one, or at the last capital of an acronym ("HTTPClient")
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || nextLower && unicode.IsUpper(prev) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// HasWord reports whether any word of s is in set.
func HasWord(s string, set map[string]bool) bool {
	for _, w := range Words(s) {
		if set[w] {
			return true
		}
	}
	return false
}
