CREATE TABLE document (
	id BIGINT PRIMARY KEY,
	body VARCHAR(100),
	fencing_token BIGINT NOT NULL
);
