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

package io.distlock.test;

import java.util.List;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RespConnection}.
 */
class RespConnectionTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private RespConnection connection;

	@BeforeEach
	void connect() {
		this.connection = redis.endpoint().connect(RespConnection.DEFAULT_TIMEOUT);
	}

	@AfterEach
	void close() {
		this.connection.close();
	}

	@Test
	void simpleStringReplyIsString() {
		// when
		Object reply = this.connection.command("SET", "key", "value");

		// then
		assertThat(reply).isEqualTo("OK");
	}

	@Test
	void integerReplyIsLong() {
		// when
		Object reply = this.connection.command("INCR", "counter");

		// then
		assertThat(reply).isEqualTo(1L);
	}

	@Test
	void bulkStringReplyIsString() {
		// given
		this.connection.command("SET", "key", "line one\r\nline two");

		// when
		Object reply = this.connection.command("GET", "key");

		// then
		assertThat(reply).isEqualTo("line one\r\nline two");
	}

	@Test
	void nilReplyIsNull() {
		// when
		Object reply = this.connection.command("GET", "missing");

		// then
		assertThat(reply).isNull();
	}

	@Test
	void arrayReplyIsList() {
		// given
		this.connection.command("RPUSH", "list", "a", "b", "c");

		// when
		Object reply = this.connection.command("LRANGE", "list", "0", "-1");

		// then
		assertThat(reply).isEqualTo(List.of("a", "b", "c"));
	}

	@Test
	void textRoundTripsAsUtf8() {
		// given
		this.connection.command("SET", "city", "Zürich ✓");

		// when
		Object reply = this.connection.command("GET", "city");

		// then
		assertThat(reply).isEqualTo("Zürich ✓");
	}

	@Test
	void errorReplyThrowsRedisCommandException() {
		// given
		this.connection.command("SET", "key", "not a number");

		// when, then
		assertThatExceptionOfType(RedisCommandException.class).isThrownBy(() -> this.connection.command("INCR", "key"))
			.withMessageStartingWith("ERR");
	}

	@Test
	void connectionStaysUsableAfterErrorReply() {
		// given
		assertThatExceptionOfType(RedisCommandException.class)
			.isThrownBy(() -> this.connection.command("NO-SUCH-COMMAND"));

		// when
		Object reply = this.connection.command("PING");

		// then
		assertThat(reply).isEqualTo("PONG");
	}

	@Test
	void errorInsideArrayIsAnElement() {
		// given
		this.connection.command("SET", "key", "not a number");
		this.connection.command("MULTI");
		this.connection.command("INCR", "key");
		this.connection.command("PING");

		// when
		Object reply = this.connection.command("EXEC");

		// then
		assertThat(reply).asInstanceOf(InstanceOfAssertFactories.LIST)
			.satisfiesExactly((error) -> assertThat(error).isInstanceOf(RedisCommandException.class),
					(pong) -> assertThat(pong).isEqualTo("PONG"));
	}

	@Test
	void sendAndReadSplitACommandFromItsReply() {
		// given
		this.connection.send("ECHO", "hello");

		// when
		Object reply = this.connection.read();

		// then
		assertThat(reply).isEqualTo("hello");
	}

}
