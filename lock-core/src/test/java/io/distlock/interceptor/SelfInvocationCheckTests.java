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

package io.distlock.interceptor;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.distlock.annotation.DistributedLocked;

import org.springframework.asm.Type;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SelfInvocationCheck}, on the bytecode of classes compiled with these
 * tests.
 */
class SelfInvocationCheckTests {

	@Test
	void aCallOnThisOfALockedMethodIsReportedWithTheCallerTheMethodAndTheLine() throws Exception {
		List<String> warnings = SelfInvocationCheck.findCalls(Refunds.class, locked(Refunds.class, "refundOne"));

		assertThat(warnings).hasSize(2);
		assertThat(warnings.get(0)).contains("'SelfInvocationCheckTests.Refunds.refundOne(long)'")
			.contains("by 'SelfInvocationCheckTests.Refunds.refundAll(List)'")
			.contains("(SelfInvocationCheckTests.java:" + lineOf("// the self-call") + ")")
			.contains("WITHOUT the lock")
			.contains("another bean")
			.contains("distlock.aop.mode=aspectj")
			.contains("distlock.aop.self-invocation-check=false");
		assertThat(warnings.get(1)).contains("by 'SelfInvocationCheckTests.Refunds.refundLater(..) (in a lambda)'");
	}

	@Test
	void aLockedMethodCalledOnlyFromOutsideIsNotReported() throws Exception {
		assertThat(SelfInvocationCheck.findCalls(Payments.class, locked(Payments.class, "pay"))).isEmpty();
	}

	@Test
	void aCallFromAStaticMethodOnAnotherInstanceIsNotReported() throws Exception {
		assertThat(SelfInvocationCheck.findCalls(Transfers.class, locked(Transfers.class, "transfer"))).isEmpty();
	}

	@Test
	void aCallOfAnUnlockedMethodOfTheSameClassIsNotReported() throws Exception {
		assertThat(SelfInvocationCheck.findCalls(Refunds.class, Map.of())).isEmpty();
	}

	private static int lineOf(String marker) throws IOException {
		List<String> lines = Files
			.readAllLines(Path.of("src/test/java/io/distlock/interceptor/SelfInvocationCheckTests.java"));
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).endsWith(marker)) {
				return i + 1;
			}
		}
		throw new IllegalStateException(marker);
	}

	private static Map<String, Method> locked(Class<?> type, String name) throws NoSuchMethodException {
		Method method = type.getDeclaredMethod(name, long.class);
		return Map.of(method.getName() + Type.getMethodDescriptor(method), method);
	}

	static class Refunds {

		void refundAll(List<Long> ids) {
			for (long id : ids) {
				this.refundOne(id); // the self-call
			}
		}

		Runnable refundLater(long id) {
			return () -> refundOne(id);
		}

		void audit() {
			log("audit");
		}

		@DistributedLocked(key = "#id")
		public void refundOne(long id) {
		}

		void log(String message) {
		}

	}

	static class Payments {

		@DistributedLocked(key = "#id")
		public void pay(long id) {
		}

	}

	static class Transfers {

		static void transferAll(Transfers other) {
			other.transfer(1);
		}

		@DistributedLocked(key = "#id")
		public void transfer(long id) {
		}

	}

}
