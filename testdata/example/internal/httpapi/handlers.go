// Package httpapi exposes the order use cases over HTTP.
package httpapi

import (
	"encoding/json"
	"net/http"

	"example.com/shop/internal/order"
	"example.com/shop/internal/payment"
)

// Handlers serves the shop's HTTP API.
type Handlers struct {
	Orders   *order.Service
	Payments *payment.Service
}

// Routes returns the HTTP routes.
func (h *Handlers) Routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /orders", h.placeOrder)
	mux.HandleFunc("POST /orders/{id}/cancel", h.cancelOrder)
	mux.HandleFunc("POST /orders/{id}/pay", h.payOrder)
	return mux
}

func (h *Handlers) placeOrder(w http.ResponseWriter, r *http.Request) {
	var o order.Order
	if err := json.NewDecoder(r.Body).Decode(&o); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := h.Orders.PlaceOrder(r.Context(), o); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

func (h *Handlers) cancelOrder(w http.ResponseWriter, r *http.Request) {
	if err := h.Orders.CancelOrder(r.Context(), r.PathValue("id")); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handlers) payOrder(w http.ResponseWriter, r *http.Request) {
	o, err := h.Orders.OrderView(r.Context(), r.PathValue("id"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	if err := h.Payments.Charge(r.Context(), o.ID, o.TotalCents); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}
