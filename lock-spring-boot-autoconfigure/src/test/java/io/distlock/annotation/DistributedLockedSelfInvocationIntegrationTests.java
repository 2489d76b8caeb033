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

package io.distlock.annotation;

import java.util.ArrayList;
import java.util.List;

import io.distlock.LockContext;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests of the trap of proxies, on a real redis-server: a call from inside a
 * bean to its own {@code @DistributedLocked} method runs unlocked, and the startup says
 * so, once per call site, in proxy mode.
 */
@ExtendWith(OutputCaptureExtension.class)
class DistributedLockedSelfInvocationIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
				DistLockAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port())
		.withBean(RefundService.class)
		.withBean(PaymentService.class);

	@Test
	void eachCallFromInsideTheClassToALockedMethodIsReportedAtStartup(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(warnings(output)).hasSize(1)
				.first()
				.asString()
				.contains("WARN")
				.contains("'DistributedLockedSelfInvocationIntegrationTests.RefundService.refundOne(long)'")
				.contains("by 'DistributedLockedSelfInvocationIntegrationTests.RefundService.refundAll(List)'")
				.contains("runs WITHOUT the lock");
		});
	}

	@Test
	void aLockedMethodCalledOnlyFromOtherBeansIsNotReported(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).doesNotContain("PaymentService.pay");
			// Called through the proxy, the method is locked.
			assertThat(context.getBean(PaymentService.class).pay(1)).isTrue();
		});
	}

	@Test
	void theReportedCallRunsUnlockedThroughTheProxy(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			RefundService refunds = context.getBean(RefundService.class);

			refunds.refundAll(List.of(1L));
			refunds.refundOne(2);

			assertThat(refunds.locked()).containsExactly(false, true);
		});
	}

	@Test
	void theCheckCanBeTurnedOff(CapturedOutput output) {
		this.contextRunner.withPropertyValues("distlock.aop.self-invocation-check=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(warnings(output)).isEmpty();
		});
	}

	private static List<String> warnings(CapturedOutput output) {
		return output.getAll().lines().filter((line) -> line.contains("is called from inside its own class")).toList();
	}

	static class RefundService {

		private final List<Boolean> locked = new ArrayList<>();

		// Through the proxy, whose own fields are empty.
		public List<Boolean> locked() {
			return this.locked;
		}

		public void refundAll(List<Long> ids) {
			for (long id : ids) {
				this.refundOne(id);
			}
		}

		@DistributedLocked(key = "'refund:' + #id")
		public void refundOne(long id) {
			this.locked.add(LockContext.current().isPresent());
		}

	}

	static class PaymentService {

		@DistributedLocked(key = "'pay:' + #id")
		public boolean pay(long id) {
			return LockContext.current().isPresent();
		}

	}

}
