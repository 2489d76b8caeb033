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

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.distlock.LockContext;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.MultiLockRequest;
import io.distlock.reactive.ReactiveLockTemplate;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.convert.support.DefaultConversionService;
import org.springframework.util.Assert;
import org.springframework.util.function.SingletonSupplier;

/**
 * Runs a {@code @DistributedLocked} method under its lock, whatever calls it: the proxy's
 * {@link LockInterceptor} or the woven
 * {@code io.distlock.aspectj.DistributedLockedAspect}, as Spring's
 * {@code CacheAspectSupport} is behind both of the cache abstraction's modes. It finds
 * the method's {@link LockOperation}, evaluates the key and hands the call to the
 * {@link LockTemplate}, which holds the release policy and re-entry: {@code execute},
 * {@code executeAsync} for a method returning a {@code CompletionStage} (held until the
 * stage completes), {@code executeAll} for several {@code keys}; a {@code Mono},
 * {@code Flux} or Kotlin {@code suspend} method goes to the {@link ReactiveLockTemplate},
 * locked on subscription. When the lock stays busy the method does not run: its failure
 * policy throws (a failed stage, an error signal), skips or calls the fallback. Once the
 * application's singletons exist, it checks that the lock store can serve the annotated
 * methods (fair mode, read locks, permits).
 */
public abstract class LockAspectSupport implements BeanFactoryAware, SmartInitializingSingleton {

	private final TransactionWarning transactionWarning = new TransactionWarning();

	private @Nullable LockOperationSource source;

	private @Nullable Supplier<LockTemplate> template;

	private @Nullable Supplier<? extends @Nullable ReactiveLockTemplate> reactiveTemplate;

	private LockKeyEvaluator evaluator = defaultEvaluator();

	/**
	 * Set the lock definitions of methods.
	 * @param source the operation source
	 */
	public void setLockOperationSource(LockOperationSource source) {
		Assert.notNull(source, "'source' must not be null");
		this.source = source;
	}

	/**
	 * Return the lock definitions of methods.
	 * @return the operation source, or {@code null} if not set yet
	 */
	public @Nullable LockOperationSource getLockOperationSource() {
		return this.source;
	}

	/**
	 * Set what supplies the template that takes the locks; looked up on the first locked
	 * call, so that configuring the aspect does not initialize Redis beans early.
	 * @param template supplies the template
	 */
	public void setLockTemplate(Supplier<LockTemplate> template) {
		Assert.notNull(template, "'template' must not be null");
		this.template = template;
	}

	/**
	 * Set what supplies the template of reactive methods ({@code Mono}, {@code Flux},
	 * Kotlin {@code suspend}); by default the bean factory's, if there is one.
	 * @param reactiveTemplate supplies the reactive template, or {@code null} if none
	 */
	public void setReactiveLockTemplate(Supplier<? extends @Nullable ReactiveLockTemplate> reactiveTemplate) {
		Assert.notNull(reactiveTemplate, "'reactiveTemplate' must not be null");
		this.reactiveTemplate = reactiveTemplate;
	}

	/**
	 * Set the bean factory that SpEL keys resolve {@code @beans} in, and whose conversion
	 * service turns key values into strings.
	 * @param beanFactory the bean factory
	 */
	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		ConversionService conversionService = (beanFactory instanceof ConfigurableBeanFactory configurable
				&& configurable.getConversionService() != null) ? configurable.getConversionService()
						: DefaultConversionService.getSharedInstance();
		this.evaluator = new LockKeyEvaluator(new DefaultParameterNameDiscoverer(), beanFactory, conversionService);
		if (this.reactiveTemplate == null) {
			// Looked up only for reactive methods, so only where Reactor is present.
			this.reactiveTemplate = SingletonSupplier
				.of(() -> beanFactory.getBeanProvider(ReactiveLockTemplate.class).getIfAvailable());
		}
	}

	/**
	 * Fail the startup, naming every such method, if the lock store cannot serve one.
	 * @throws UnsupportedLockOperationException if the lock store cannot serve a method
	 */
	@Override
	public void afterSingletonsInstantiated() {
		if (this.source != null && this.template != null) {
			new LockStoreSupportCheck(this.source.getLockOperations()).check(this.template, this::findReactiveTemplate);
		}
	}

	/**
	 * Forget the application's beans: a later call fails instead of reaching them.
	 */
	protected void clear() {
		this.source = null;
		this.template = null;
		this.reactiveTemplate = null;
		this.evaluator = defaultEvaluator();
	}

	/**
	 * Run the method under its lock, or straight away if it has no lock definition.
	 * @param invoker calls the method's own code
	 * @param target the object the method is called on, {@code null} for a static method
	 * @param method the method called
	 * @param args the arguments of the call
	 * @return what the method returned, or what its failure policy gives instead
	 * @throws Throwable what the method threw, or why its lock was not acquired
	 */
	protected @Nullable Object execute(LockInvoker invoker, @Nullable Object target, Method method,
			@Nullable Object[] args) throws Throwable {
		LockOperationSource source = this.source;
		Supplier<LockTemplate> template = this.template;
		if (source == null || template == null) {
			throw new IllegalStateException("@DistributedLocked method '" + method + "' was called through "
					+ getClass().getSimpleName() + ", which is not configured: it has no "
					+ ((source == null) ? "LockOperationSource" : "LockTemplate")
					+ ". With woven aspects, set distlock.aop.mode=aspectj and call the method once the "
					+ "application has started");
		}
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target) : method.getDeclaringClass();
		LockOperation operation = source.getLockOperation(method, targetClass);
		if (operation == null || target == null) {
			return invoker.invoke();
		}
		if (operation.multiKey()) {
			return executeMultiKey(operation, invoker, args, target, targetClass, template.get());
		}
		String key = operation.lockKey(this.evaluator.evaluate(operation, args, target, targetClass));
		// Only a call that takes its lock releases it before the transaction commits; a
		// re-entered one leaves it to the outer call. Reactive locks are not bound to the
		// thread, whatever lock it holds.
		if (operation.reactive() ? LockContext.find(key) == null : template.get().findBoundLock(key) == null) {
			this.transactionWarning.warnIfInTransaction(operation);
		}
		LockRequest request = request(operation, key);
		if (operation.reactive()) {
			// Taken on subscription, held until the publisher terminates.
			return ReactiveLockInvocation.invoke(reactiveTemplate(), operation, request, invoker, args, target);
		}
		return BlockingLockInvocation.invoke(template.get(), operation, request, invoker, args, target);
	}

	private @Nullable Object executeMultiKey(LockOperation operation, LockInvoker invoker, @Nullable Object[] args,
			Object target, Class<?> targetClass, LockTemplate template) throws Throwable {
		List<String> keys = this.evaluator.evaluateAll(operation, args, target, targetClass);
		if (keys.stream().allMatch((key) -> template.findBoundLock(key) == null)) {
			this.transactionWarning.warnIfInTransaction(operation);
		}
		MultiLockRequest request;
		try {
			request = operation.toMultiLockRequest(keys);
		}
		catch (IllegalArgumentException ex) {
			throw LockKeyEvaluator.invalidKey(operation, operation.keys().get(0),
					"gave an invalid lock key: " + ex.getMessage(), ex);
		}
		return BlockingLockInvocation.invokeAll(template, operation, request, invoker, args, target);
	}

	private ReactiveLockTemplate reactiveTemplate() {
		ReactiveLockTemplate reactive = findReactiveTemplate();
		Assert.state(reactive != null, "No ReactiveLockTemplate for reactive @DistributedLocked methods");
		return reactive;
	}

	private @Nullable ReactiveLockTemplate findReactiveTemplate() {
		return (this.reactiveTemplate != null) ? this.reactiveTemplate.get() : null;
	}

	private static LockKeyEvaluator defaultEvaluator() {
		return new LockKeyEvaluator(new DefaultParameterNameDiscoverer(), null,
				DefaultConversionService.getSharedInstance());
	}

	private static LockRequest request(LockOperation operation, String key) {
		try {
			return operation.toRequest(key);
		}
		catch (IllegalArgumentException ex) {
			throw LockKeyEvaluator.invalidKey(operation, "gave an invalid lock key: " + ex.getMessage(), ex);
		}
	}

}
