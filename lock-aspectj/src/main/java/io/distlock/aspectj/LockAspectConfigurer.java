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

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.aspectj.lang.Aspects;

import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.interceptor.LockOperationSource;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Configures the singleton {@link DistributedLockedAspect} of the class loader for one
 * application context: with its operation source, template and bean factory (for the key
 * evaluator), for the woven beans that context creates; and forgets that configuration,
 * and only that one, when the context closes. The bean that
 * {@code distlock.aop.mode=aspectj} registers; a bean post-processor, so that it sees
 * each woven bean as it is created. The aspect itself is not a bean: as an
 * {@code @Aspect}, Spring AOP would then also apply it through proxies.
 *
 * <p>
 * It also checks each bean with {@code @DistributedLocked} methods after its
 * initialization, with no proxy to match them: it parses and validates their lock
 * definitions, and fails the startup, naming the class, if the aspect was not woven into
 * an annotated method (which would otherwise run unlocked) or if one is a Kotlin
 * {@code suspend} function (woven, its body runs again at each resumption).
 */
public final class LockAspectConfigurer
		implements BeanPostProcessor, BeanFactoryAware, SmartInitializingSingleton, DisposableBean {

	// Aspects.aspectOf: the aspectOf() that ajc adds is not visible in its own
	// compilation.
	private final DistributedLockedAspect aspect = Aspects.aspectOf(DistributedLockedAspect.class);

	private final ContextLockAspect context = new ContextLockAspect();

	private final LockOperationSource source;

	private final LockWeavingCheck weavingCheck;

	private final Map<Class<?>, Boolean> locked = new ConcurrentHashMap<>();

	/**
	 * Configure the aspect with the lock definitions and the template.
	 * @param source the lock definitions of methods
	 * @param template supplies the template, looked up on the first locked call
	 */
	public LockAspectConfigurer(LockOperationSource source, Supplier<LockTemplate> template) {
		this.source = source;
		this.weavingCheck = new LockWeavingCheck(source);
		this.context.setLockOperationSource(source);
		this.context.setLockTemplate(template);
		this.aspect.contexts().add(this.context);
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
		this.context.setBeanFactory(beanFactory);
	}

	/**
	 * Bind a bean with locked methods to this context's configuration, before its
	 * initialization runs (which may call them).
	 */
	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		bind(bean);
		return bean;
	}

	/**
	 * Check that the aspect was woven into a bean's locked methods, and bind a bean with
	 * locked methods to this context's configuration: also an object that a
	 * {@code FactoryBean} made, which is post-processed only after its initialization.
	 * @throws io.distlock.interceptor.InvalidLockOperationException if a locked method
	 * was not woven, or is a Kotlin {@code suspend} function
	 */
	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		this.weavingCheck.check(bean);
		bind(bean);
		return bean;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.context.afterSingletonsInstantiated();
	}

	@Override
	public void destroy() {
		this.aspect.contexts().remove(this.context);
		this.context.close();
	}

	private void bind(Object bean) {
		if (!this.context.isClosed() && hasLockedMethods(ClassUtils.getUserClass(bean))) {
			this.aspect.contexts().bind(bean, this.context);
		}
	}

	private boolean hasLockedMethods(Class<?> userClass) {
		return this.locked.computeIfAbsent(userClass, (type) -> {
			if (!this.source.isCandidateClass(type)) {
				return false;
			}
			AtomicBoolean found = new AtomicBoolean();
			ReflectionUtils.doWithMethods(type, (method) -> found.set(true),
					(method) -> !found.get() && !method.isSynthetic() && method.getDeclaringClass() != Object.class
							&& AnnotatedElementUtils.hasAnnotation(method, DistributedLocked.class));
			return found.get();
		});
	}

}
