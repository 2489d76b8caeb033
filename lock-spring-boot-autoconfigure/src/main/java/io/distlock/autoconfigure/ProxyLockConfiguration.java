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
import io.distlock.interceptor.AnnotationLockOperationSource;
import io.distlock.interceptor.LockAdvisor;
import io.distlock.interceptor.LockInterceptor;
import io.distlock.interceptor.LockOperationSource;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The infrastructure that applies {@code @DistributedLocked} through proxies (the default
 * {@code distlock.aop.mode}): operation source, interceptor and advisor, plus an
 * auto-proxy creator if the application has none.
 *
 * <p>
 * These beans are created early, while bean post-processors are set up, so they are
 * {@code static}, read their settings straight from the {@link Environment}, and reach
 * the {@link LockTemplate} lazily, keeping Redis beans out of that early phase.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
@ConditionalOnProperty(name = "distlock.aop.mode", havingValue = "proxy", matchIfMissing = true)
@Import(ProxyLockConfiguration.AutoProxyRegistrar.class)
class ProxyLockConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockOperationSource lockOperationSource(Environment environment) {
		DistLockProperties properties = LockAdviceSupport.properties(environment);
		return new AnnotationLockOperationSource(properties.getDefaultTtl(), properties.getDefaultWaitTime());
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockInterceptor lockInterceptor(LockOperationSource lockOperationSource,
			ObjectProvider<LockTemplate> lockTemplate, Environment environment) {
		LockInterceptor interceptor = new LockInterceptor(lockOperationSource,
				LockAdviceSupport.lockTemplate(lockTemplate));
		interceptor.setSelfInvocationCheck(LockAdviceSupport.properties(environment).getAop().isSelfInvocationCheck());
		return interceptor;
	}

	@Bean(name = "io.distlock.internalLockAdvisor")
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockAdvisor lockAdvisor(LockOperationSource lockOperationSource, LockInterceptor lockInterceptor,
			Environment environment) {
		LockAdvisor advisor = new LockAdvisor(lockOperationSource);
		advisor.setAdvice(lockInterceptor);
		advisor.setOrder(LockAdviceSupport.properties(environment).getOrder());
		return advisor;
	}

	/**
	 * Registers Spring's infrastructure auto-proxy creator unless the application already
	 * has one (Spring Boot's AOP auto-configuration usually registers it), as
	 * {@code @EnableTransactionManagement} does.
	 */
	static class AutoProxyRegistrar implements ImportBeanDefinitionRegistrar {

		@Override
		public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
			AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
		}

	}

}
