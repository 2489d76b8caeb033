/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock.docs;

import java.time.Duration;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's fencing token example, on a real redis-server and a real database: a
 * holder whose lease ran out while it was paused cannot overwrite the next holder's
 * write.
 */
class FencingTokenExampleIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LettuceConnectionFactory connectionFactory;

	private EmbeddedDatabase database;

	private LockTemplate lockTemplate;

	private FencedDocumentStore store;

	@BeforeEach
	void setUp() {
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.lockTemplate = new LockTemplate(new RedisLockClient(this.connectionFactory));
		// The table docs/fencing.md shows
		this.database = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
			.generateUniqueName(true)
			.addScript("io/distlock/docs/document.sql")
			.build();
		JdbcTemplate jdbc = new JdbcTemplate(this.database);
		jdbc.update("INSERT INTO document VALUES (1, 'empty', 0)");
		this.store = new FencedDocumentStore(jdbc);
	}

	@AfterEach
	void tearDown() {
		this.database.shutdown();
		this.connectionFactory.destroy();
	}

	@Test
	void writeOfAHolderWhoseLeaseRanOutIsRejected() throws Exception {
		LockRequest shortLease = LockRequest.of("document:1", Duration.ofMillis(200), Duration.ZERO)
			.withAutoRenew(false);
		LockHandle paused = this.lockTemplate.tryAcquire(shortLease).orElseThrow();
		// The first holder stalls (a long GC pause) past its lease; the next one takes
		// over.
		Thread.sleep(300);
		try (LockHandle next = this.lockTemplate.tryAcquire("document:1", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			assertThat(this.store.write(1, "written by the next holder", next.fencingToken())).isTrue();
		}
		assertThat(this.store.write(1, "late write of the paused holder", paused.fencingToken())).isFalse();
		paused.close();
	}

}
