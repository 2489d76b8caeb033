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

package io.distlock.aspectj;

import java.util.function.Supplier;

import org.aspectj.lang.Aspects;

import io.distlock.LockTemplate;
import io.distlock.interceptor.LockOperationSource;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Configures the singleton {@link DistributedLockedAspect} of the class loader with an
 * application's operation source, template and bean factory (for the key evaluator), and
 * clears it when the application context closes: the bean that
 * {@code distlock.aop.mode=aspectj} registers. The aspect itself is not a bean: as an
 * {@code @Aspect}, Spring AOP would then also apply it through proxies.
 */
public final class LockAspectConfigurer implements BeanFactoryAware, SmartInitializingSingleton, DisposableBean {

	// Aspects.aspectOf: the aspectOf() that ajc adds is not visible in its own
	// compilation.
	private final DistributedLockedAspect aspect = Aspects.aspectOf(DistributedLockedAspect.class);

	/**
	 * Configure the aspect with the lock definitions and the template.
	 * @param source the lock definitions of methods
	 * @param template supplies the template, looked up on the first locked call
	 */
	public LockAspectConfigurer(LockOperationSource source, Supplier<LockTemplate> template) {
		this.aspect.setLockOperationSource(source);
		this.aspect.setLockTemplate(template);
	}

	/**
	 * Return the aspect this configures.
	 * @return the class loader's aspect singleton
	 */
	public DistributedLockedAspect getAspect() {
		return this.aspect;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.aspect.setBeanFactory(beanFactory);
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.aspect.afterSingletonsInstantiated();
	}

	@Override
	public void destroy() {
		this.aspect.destroy();
	}

}
