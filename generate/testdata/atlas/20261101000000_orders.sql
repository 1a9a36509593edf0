CREATE TABLE orders (id bigint PRIMARY KEY, status text NOT NULL);
