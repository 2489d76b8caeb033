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

package io.distlock.autoconfigure;

import io.distlock.LockTemplate;
import io.distlock.aspectj.LockAspectConfigurer;
import io.distlock.interceptor.AnnotationLockOperationSource;
import io.distlock.interceptor.LockOperationSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * For {@code distlock.aop.mode=aspectj}: configures the singleton of the woven
 * {@code DistributedLockedAspect}, for this context's beans, with the operation source,
 * the template and the bean factory (the key evaluator's), as Spring's
 * {@code AspectJCachingConfiguration} does {@code AnnotationCacheAspect}
 * ({@link LockAspectConfigurer}, which also checks each bean with locked methods for the
 * weaving), and registers no proxy advisor.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
@ConditionalOnProperty(name = "distlock.aop.mode", havingValue = "aspectj")
class AspectJLockConfiguration {

	@Configuration(proxyBeanMethods = false)
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnClass(name = "io.distlock.aspectj.DistributedLockedAspect")
	static class WovenAspect {

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		@ConditionalOnMissingBean
		static LockOperationSource lockOperationSource(Environment environment) {
			DistLockProperties properties = LockAdviceSupport.properties(environment);
			// Woven, private and final methods are locked too.
			return new AnnotationLockOperationSource(properties.getDefaultTtl(), properties.getDefaultWaitTime(),
					false);
		}

		@Bean(name = "io.distlock.internalLockAspectConfigurer")
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static LockAspectConfigurer lockAspectConfigurer(LockOperationSource lockOperationSource,
				ObjectProvider<LockTemplate> lockTemplate) {
			return new LockAspectConfigurer(lockOperationSource, LockAdviceSupport.lockTemplate(lockTemplate));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingClass("io.distlock.aspectj.DistributedLockedAspect")
	static class NoAspect {

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static Object distributedLockedAspectMissing() {
			throw new InvalidDistLockPropertyException("distlock.aop.mode", "aspectj",
					"distlock.aop.mode is aspectj, but DistributedLockedAspect is not on the class path",
					"Add io.distlock:lock-aspectj and weave it into the application's classes, or remove "
							+ "distlock.aop.mode to lock through proxies");
		}

	}

}
