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

package io.distlock.aspectj.tests;

import java.lang.reflect.Modifier;

import io.distlock.LockTemplate;
import io.distlock.aspectj.tests.unwoven.InvoiceService;
import io.distlock.aspectj.tests.unwoven.LedgerService;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code distlock.aop.mode=aspectj} with {@link LedgerService}, compiled by javac, and
 * {@link InvoiceService}, a Kotlin class that is not open, woven as they are loaded: this
 * class runs in a JVM started with {@code -javaagent:aspectjweaver.jar}, lock-aspectj's
 * {@code META-INF/aop.xml} naming the aspect and the test's choosing the classes to
 * weave.
 */
class LoadTimeWeavingIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@Test
	void aPrivateMethodOfAFinalClassCalledFromInsideItIsLockedWhenWovenAtLoadTime() {
		try (ConfigurableApplicationContext context = run()) {
			LedgerService ledger = context.getBean(LedgerService.class);

			assertThat(AopUtils.isAopProxy(ledger)).isFalse();
			assertThat(ledger.postAll(1)).isEqualTo("ledger:1 held=true");
			assertThat(context.getBean(LockTemplate.class).getEngine().inspect("ledger:1").held()).isFalse();
		}
	}

	@Test
	void aKotlinClassThatIsNotOpenIsLockedFromInsideWhenWovenAtLoadTime() {
		try (ConfigurableApplicationContext context = run()) {
			InvoiceService invoices = context.getBean(InvoiceService.class);

			assertThat(Modifier.isFinal(InvoiceService.class.getModifiers())).isTrue();
			assertThat(AopUtils.isAopProxy(invoices)).isFalse();
			assertThat(invoices.issueAll(2)).isEqualTo("invoice:2 held=true");
			assertThat(invoices.issue(3)).isEqualTo("invoice:3 held=true");
		}
	}

	private static ConfigurableApplicationContext run() {
		return new SpringApplicationBuilder(LedgerApplication.class).web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port(), "spring.main.banner-mode=off",
					"distlock.aop.mode=aspectj")
			.run();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class LedgerApplication {

		@Bean
		LedgerService ledgerService(LockTemplate template) {
			return new LedgerService(template);
		}

		@Bean
		InvoiceService invoiceService(LockTemplate template) {
			return new InvoiceService(template);
		}

	}

}
