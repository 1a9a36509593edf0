// Package mailer sends email over HTTP.
package mailer

import (
	"bytes"
	"net/http"
)

type Client struct{ hc *http.Client }

// Send posts the email; key, when set, is the idempotency key.
func (c *Client) Send(to string, body []byte, key string) error { // want Send:`consumer\(external \(\*net/http.Client\).Do\)`
	req, err := http.NewRequest(http.MethodPost, "https://mail.invalid/send", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = c.hc.Do(req)
	return err
}
