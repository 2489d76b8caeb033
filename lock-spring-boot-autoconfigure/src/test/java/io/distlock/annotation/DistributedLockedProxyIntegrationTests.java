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

import io.distlock.LockContext;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests that {@link DistributedLocked} applies through JDK interface proxies
 * and CGLIB class proxies alike, with the annotation on the implementation or on the
 * interface, on a real redis-server.
 */
class DistributedLockedProxyIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private ApplicationContextRunner contextRunner(boolean proxyTargetClass) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
					DistLockAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port(),
					"spring.aop.proxy-target-class=" + proxyTargetClass)
			.withBean(AnnotatedImplementation.class)
			.withBean(AnnotatedInterfaceImplementation.class);
	}

	@Test
	void jdkProxyAppliesTheAnnotationOnTheImplementation() {
		contextRunner(false).run((context) -> {
			Greeter greeter = context.getBean(Greeter.class);
			assertThat(AopUtils.isJdkDynamicProxy(greeter)).isTrue();
			assertThat(greeter.greet("ann")).isEqualTo("greet:ann");
		});
	}

	@Test
	void jdkProxyAppliesTheAnnotationOnTheInterface() {
		contextRunner(false).run((context) -> {
			AnnotatedGreeter greeter = context.getBean(AnnotatedGreeter.class);
			assertThat(AopUtils.isJdkDynamicProxy(greeter)).isTrue();
			assertThat(greeter.greet("bob")).isEqualTo("iface:bob");
		});
	}

	@Test
	void classProxyAppliesTheAnnotationOnTheImplementation() {
		contextRunner(true).run((context) -> {
			AnnotatedImplementation greeter = context.getBean(AnnotatedImplementation.class);
			assertThat(AopUtils.isCglibProxy(greeter)).isTrue();
			assertThat(greeter.greet("ann")).isEqualTo("greet:ann");
		});
	}

	@Test
	void classProxyAppliesTheAnnotationOnTheInterface() {
		contextRunner(true).run((context) -> {
			AnnotatedInterfaceImplementation greeter = context.getBean(AnnotatedInterfaceImplementation.class);
			assertThat(AopUtils.isCglibProxy(greeter)).isTrue();
			assertThat(greeter.greet("bob")).isEqualTo("iface:bob");
		});
	}

	interface Greeter {

		String greet(String name);

	}

	static class AnnotatedImplementation implements Greeter {

		@Override
		@DistributedLocked(name = "greet", key = "#name")
		public String greet(String name) {
			return LockContext.current().orElseThrow().key();
		}

	}

	interface AnnotatedGreeter {

		@DistributedLocked(name = "iface", key = "#p0")
		String greet(String name);

	}

	static class AnnotatedInterfaceImplementation implements AnnotatedGreeter {

		@Override
		public String greet(String name) {
			return LockContext.current().orElseThrow().key();
		}

	}

}
