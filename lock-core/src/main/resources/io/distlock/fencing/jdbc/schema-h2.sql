-- The fence table of io.distlock.fencing.jdbc.JdbcFence: the highest fencing token
-- recorded per resource.
CREATE TABLE IF NOT EXISTS distlock_fence (
	resource VARCHAR(512) NOT NULL PRIMARY KEY,
	token BIGINT NOT NULL
);
