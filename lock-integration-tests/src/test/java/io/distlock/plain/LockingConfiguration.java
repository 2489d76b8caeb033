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
package io.distlock.plain;

import java.time.Duration;

import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.interceptor.AnnotationLockOperationSource;
import io.distlock.interceptor.LockAdvisor;
import io.distlock.interceptor.LockInterceptor;
import io.distlock.lease.LeaseRenewer;
import io.distlock.redis.RedisLockClient;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.store.LockClient;
import io.distlock.waiting.LockWaiter;

import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * distlock in a plain Spring application, without Spring Boot: the beans the README's
 * "Using it without Spring Boot" section shows. The application brings its own
 * {@link RedisConnectionFactory}.
 */
// tag::configuration[]
@Configuration(proxyBeanMethods = false)
public class LockingConfiguration {

	@Bean
	LockClient lockClient(RedisConnectionFactory connectionFactory) {
		return new RedisLockClient(connectionFactory);
	}

	@Bean
	LockWaiter lockWaiter() {
		return new LockWaiter(Duration.ofMillis(500));
	}

	@Bean // wakes waiters when a lock is released
	RedisReleaseNotifier releaseNotifier(RedisConnectionFactory connectionFactory, LockWaiter lockWaiter) {
		return new RedisReleaseNotifier(connectionFactory, lockWaiter);
	}

	@Bean // the watchdog that renews leases; stops with the context
	LeaseRenewer leaseRenewer(LockClient lockClient) {
		return new LeaseRenewer(lockClient, Duration.ofHours(1));
	}

	@Bean // what the front doors share: settings, renewer, held locks, local queues
	LockEngine lockEngine(LockClient lockClient, LockWaiter lockWaiter, LeaseRenewer leaseRenewer) {
		return new LockEngine(lockClient, lockWaiter, LockSettings.defaults(), leaseRenewer);
	}

	@Bean
	LockTemplate lockTemplate(LockEngine lockEngine) {
		return new LockTemplate(lockEngine);
	}

	// For @DistributedLocked: the definitions, the interceptor and the advisor.
	@Bean
	static AnnotationLockOperationSource lockOperationSource() {
		return new AnnotationLockOperationSource(Duration.ofSeconds(30), Duration.ZERO);
	}

	@Bean
	static LockInterceptor lockInterceptor(AnnotationLockOperationSource lockOperationSource,
			ObjectProvider<LockTemplate> lockTemplate) {
		return new LockInterceptor(lockOperationSource, lockTemplate::getObject);
	}

	@Bean
	static LockAdvisor lockAdvisor(AnnotationLockOperationSource lockOperationSource, LockInterceptor lockInterceptor) {
		LockAdvisor advisor = new LockAdvisor(lockOperationSource);
		advisor.setAdvice(lockInterceptor);
		return advisor;
	}

	@Bean // or @EnableAspectJAutoProxy, @EnableTransactionManagement: any auto-proxy
			// creator
	static DefaultAdvisorAutoProxyCreator autoProxyCreator() {
		return new DefaultAdvisorAutoProxyCreator();
	}

}
// end::configuration[]
