-- +goose Up
CREATE TABLE orders (id int PRIMARY KEY);
-- +goose Down
DROP TABLE orders;
