-- The fence table of io.distlock.fencing.jdbc.JdbcFence: the highest fencing token
-- recorded per resource. For databases without a script of their own.
CREATE TABLE IF NOT EXISTS distlock_fence (
	resource VARCHAR(512) NOT NULL PRIMARY KEY,
	token BIGINT NOT NULL
);
