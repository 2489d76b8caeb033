CREATE TABLE account (
	id BIGINT PRIMARY KEY,
	balance BIGINT,
	fence_token BIGINT
);
