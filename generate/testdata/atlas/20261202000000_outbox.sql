-- outboxify:migration outbox
CREATE TABLE outbox (id uuid PRIMARY KEY);
