package catalog

import (
	"reflect"
	"testing"
)

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"chargePaymentV2":             {"charge", "payment", "v2"},
		"send_email":                  {"send", "email"},
		"HTTPClient":                  {"http", "client"},
		"payload":                     {"payload"},
		"retrieveUser":                {"retrieve", "user"},
		"github.com/stripe/stripe-go": {"github", "com", "stripe", "stripe", "go"},
	} {
		if got := Words(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
	set := map[string]bool{"pay": true, "retry": true}
	for in, want := range map[string]bool{"payload": false, "PayInvoice": true, "retrieved": false, "maxRetry": true} {
		if got := HasWord(in, set); got != want {
			t.Errorf("HasWord(%q) = %v, want %v", in, got, want)
		}
	}
}
