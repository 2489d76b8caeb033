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

package io.distlock;

import java.net.URL;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import io.distlock.aspectj.DistributedLockedAspect;
import io.distlock.autoconfigure.DistLockAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Architecture rules for the main classes of {@code lock-core} and of this module,
 * checked with ArchUnit.
 */
class ArchitectureTests {

	private static final JavaClasses classes = importMainClasses();

	/**
	 * Every public type: what users call or implement, and what store implementers need.
	 * A new public type is a decision, taken here.
	 */
	private static final Set<String> PUBLIC_TYPES = Set.of(
			// The API
			"io.distlock.DistributedLockException", "io.distlock.LockAcquisitionException",
			"io.distlock.LockBackendException", "io.distlock.LockBusyCallback", "io.distlock.LockCallback",
			"io.distlock.LockContext", "io.distlock.LockHandle", "io.distlock.HeldLock", "io.distlock.LockListener",
			"io.distlock.LockEvent", "io.distlock.LockEvent$Acquired", "io.distlock.LockEvent$NotAcquired",
			"io.distlock.LockEvent$Released", "io.distlock.LockEvent$ReleaseMismatch",
			"io.distlock.LockEvent$ReleaseFailed", "io.distlock.LockEvent$Lost", "io.distlock.LockLostEvent",
			"io.distlock.LockRequest", "io.distlock.LockRequest$Builder", "io.distlock.LockStatistics",
			"io.distlock.LockTemplate", "io.distlock.LockOperations", "io.distlock.annotation.DistributedLocked",
			"io.distlock.annotation.LockFailurePolicy", "io.distlock.LockMode", "io.distlock.MultiLockRequest",
			"io.distlock.MultiLockHandle", "io.distlock.MultiLockCallback", "io.distlock.leader.LeaderElection",
			"io.distlock.leader.LeadershipGrantedEvent", "io.distlock.leader.LeadershipRevokedEvent",
			"io.distlock.leader.LeadershipRevokedEvent$Reason",
			"io.distlock.autoconfigure.DistLockLeaderAutoConfiguration",
			"io.distlock.autoconfigure.DistLockProperties$Leader",
			// The store SPI and the engine parts a configuration wires
			"io.distlock.store.AcquireResult", "io.distlock.store.AcquireResult$Acquired",
			"io.distlock.store.AcquireResult$Busy", "io.distlock.store.AcquireResult$NotConfirmed",
			"io.distlock.store.FairLockClient", "io.distlock.store.RaisableFencingLockClient",
			"io.distlock.store.AsyncFencingLockCalls", "io.distlock.store.HandoverLockClient",
			"io.distlock.store.HandoverLockClient$Handover", "io.distlock.store.HandoverLockClient$HandedOver",
			"io.distlock.store.HandoverLockClient$Declined", "io.distlock.store.HandoverLockClient$NotHeld",
			"io.distlock.store.InspectableLockClient", "io.distlock.store.ReadWriteLockClient",
			"io.distlock.store.LockState", "io.distlock.store.LockClient", "io.distlock.store.PermitLockClient",
			"io.distlock.store.Renewal", "io.distlock.lease.LeaseRenewer", "io.distlock.lease.Lease",
			"io.distlock.waiting.LockWaiter", "io.distlock.waiting.LockWaiter$Waiter",
			// Annotation support, for configurations without Spring Boot
			"io.distlock.interceptor.AnnotationLockOperationSource", "io.distlock.interceptor.LockAdvisor",
			"io.distlock.interceptor.LockInterceptor", "io.distlock.interceptor.LockOperation",
			"io.distlock.interceptor.LockOperationSource", "io.distlock.interceptor.InvalidLockOperationException",
			"io.distlock.interceptor.UnsupportedLockOperationException",
			"io.distlock.interceptor.UnsupportedLockOperationException$Feature",
			"io.distlock.interceptor.LockAspectSupport", "io.distlock.interceptor.LockInvoker",
			// The fencing kit
			"io.distlock.fencing.FencingTokenRejectedException", "io.distlock.fencing.LockCommitGuard",
			"io.distlock.fencing.LockLostBeforeCommitException",
			"io.distlock.autoconfigure.DistLockCommitGuardAutoConfiguration", "io.distlock.fencing.jdbc.JdbcFence",
			"io.distlock.fencing.jdbc.FencedRowUpdate", "io.distlock.fencing.redis.RedisFencedWrites",
			"io.distlock.autoconfigure.DistLockJdbcFencingAutoConfiguration",
			"io.distlock.autoconfigure.DistLockFencingProperties",
			"io.distlock.autoconfigure.DistLockFencingProperties$Jdbc",
			// The adapters under ShedLock and Spring Integration
			"io.distlock.shedlock.DistlockLockProvider", "io.distlock.integration.DistlockLockRegistry",
			"io.distlock.autoconfigure.DistLockShedLockAutoConfiguration",
			"io.distlock.autoconfigure.DistLockIntegrationAutoConfiguration",
			// The woven aspect (lock-aspectj)
			"io.distlock.aspectj.DistributedLockedAspect", "io.distlock.aspectj.LockAspectConfigurer",
			"io.distlock.autoconfigure.DistLockProperties$Aop", "io.distlock.autoconfigure.DistLockProperties$Aop$Mode",
			// Stores and integrations
			"io.distlock.redis.RedisLockClient", "io.distlock.redis.RedisReleaseNotifier",
			"io.distlock.redis.ReactiveRedisLockClient", "io.distlock.reactive.ReactiveLockTemplate",
			"io.distlock.store.ReactiveLockClient", "io.distlock.reactive.ReactiveLockHandle",
			"io.distlock.redlock.RedlockClient", "io.distlock.redlock.RedlockNodes",
			// Spring Boot
			"io.distlock.autoconfigure.DistLockAutoConfiguration",
			"io.distlock.autoconfigure.DistLockMetricsAutoConfiguration",
			"io.distlock.autoconfigure.DistLockHealthContributorAutoConfiguration",
			"io.distlock.autoconfigure.DistLockReactiveAutoConfiguration",
			"io.distlock.autoconfigure.DistLockProperties$Observation",
			"io.distlock.autoconfigure.DistLockProperties$Actuator",
			"io.distlock.autoconfigure.actuate.DistLockEndpointAutoConfiguration",
			"io.distlock.autoconfigure.actuate.LocksEndpoint",
			"io.distlock.autoconfigure.actuate.LocksEndpoint$HeldLocksDescriptor",
			"io.distlock.autoconfigure.actuate.LocksEndpoint$HeldLockDescriptor",
			"io.distlock.autoconfigure.actuate.LocksEndpoint$LockStateDescriptor",
			"io.distlock.autoconfigure.actuate.LocksEndpoint$RefusalDescriptor",
			"io.distlock.autoconfigure.actuate.LocksEndpointProperties",
			"io.distlock.autoconfigure.actuate.ForceReleasingLocksEndpoint",
			"io.distlock.autoconfigure.actuate.ForceReleasingLocksEndpoint$ForceReleaseDescriptor",
			"io.distlock.observation.LockObservationContext", "io.distlock.observation.LockObservationContext$Phase",
			"io.distlock.observation.LockObservationConvention",
			"io.distlock.observation.DefaultLockObservationConvention", "io.distlock.autoconfigure.DistLockProperties",
			"io.distlock.autoconfigure.DistLockProperties$Redlock",
			"io.distlock.autoconfigure.DistLockProperties$Replication",
			// The engine the front doors are views of, its settings and its
			// administration
			"io.distlock.engine.LockEngine", "io.distlock.engine.ReactiveLockEngine", "io.distlock.LockSettings",
			"io.distlock.LockSettings$Builder", "io.distlock.LockAdministration", "io.distlock.LockKeys",
			// Who waits for a lock
			"io.distlock.WaitingLock", "io.distlock.WaitedOnLock", "io.distlock.store.LockHolder",
			"io.distlock.store.LockState$Holding", "io.distlock.store.LockState$Kind",
			"io.distlock.autoconfigure.actuate.LockHolderDescriptor",
			"io.distlock.autoconfigure.actuate.WaitingLockDescriptor");

	/**
	 * The front doors that the API packages hold, as earlier issues fixed their names:
	 * they are built on the engine, which is built on the rest of their packages (the
	 * requests, handles, events, exceptions), so they form a layer of their own above it.
	 */
	private static final Set<String> FRONT_DOORS = Set.of("io.distlock.LockTemplate",
			"io.distlock.reactive.ReactiveLockTemplate");

	/**
	 * The layers of lock-core and of this module from the bottom up, each a list of
	 * packages (a front door counts as "package (front doors)"): a class depends only on
	 * classes of its own layer or of the layers below it. The store SPI and the
	 * observation vocabulary at the bottom; the lease and wait machinery on them; the
	 * API's values ({@code LockContext}, which binds held locks to threads, among them);
	 * the annotation, whose {@code mode} is the API's {@code LockMode}; the engine; the
	 * front doors and the stores; leader election, Redlock, the annotation support, the
	 * fencing kit and the ShedLock and Spring Integration adapters on the front doors;
	 * the woven aspect on the annotation support; the auto-configuration on top.
	 */
	private static final List<List<String>> LAYERS = List.of(List.of("io.distlock.store", "io.distlock.observation"),
			List.of("io.distlock.lease", "io.distlock.waiting"), List.of("io.distlock", "io.distlock.reactive"),
			List.of("io.distlock.annotation"), List.of("io.distlock.engine"),
			List.of("io.distlock (front doors)", "io.distlock.reactive (front doors)", "io.distlock.redis"),
			List.of("io.distlock.leader", "io.distlock.redlock", "io.distlock.interceptor", "io.distlock.fencing",
					"io.distlock.fencing.jdbc", "io.distlock.fencing.redis", "io.distlock.shedlock",
					"io.distlock.integration"),
			List.of("io.distlock.aspectj"), List.of("io.distlock.autoconfigure"),
			List.of("io.distlock.autoconfigure.actuate"));

	/**
	 * Return the layer name of a class: its package, or "package (front doors)" for a
	 * front door and the types nested in it.
	 */
	private static String layerName(JavaClass type) {
		JavaClass outermost = type;
		while (outermost.getEnclosingClass().isPresent()) {
			outermost = outermost.getEnclosingClass().get();
		}
		String name = outermost.getName();
		int lambda = name.indexOf('$');
		String topLevel = (lambda >= 0) ? name.substring(0, lambda) : name;
		return FRONT_DOORS.contains(topLevel) ? type.getPackageName() + " (front doors)" : type.getPackageName();
	}

	private static DescribedPredicate<JavaClass> inLayers(List<String> names) {
		return DescribedPredicate.describe("in " + names, (type) -> names.contains(layerName(type)));
	}

	/**
	 * The allow-list may shrink, never grow past this size without a decision here. Issue
	 * 47 aims at 100: the remaining entries are the API, the store SPI, the Spring
	 * cache-style annotation support, the fencing kit, the adapters, and the Boot
	 * auto-configurations, properties and endpoint descriptors.
	 */
	private static final int MAX_PUBLIC_TYPES = 127;

	@Test
	void theAllowListDoesNotGrow() {
		assertThat(PUBLIC_TYPES).hasSizeLessThanOrEqualTo(MAX_PUBLIC_TYPES);
	}

	@Test
	void onlyTheAllowedTypesArePublic() {
		check(classes().should(new ArchCondition<>("be on the allow-list of public types when public") {

			@Override
			public void check(JavaClass type, ConditionEvents events) {
				if (isAccessibleEverywhere(type) && !PUBLIC_TYPES.contains(type.getName())) {
					events.add(SimpleConditionEvent.violated(type, type.getName()
							+ " is public but not on the allow-list: make it package-private, or add it"));
				}
			}

		}));
	}

	/**
	 * Tell whether a type is public and so is every type it is nested in: a record nested
	 * in a package-private interface is public only in name.
	 */
	private static boolean isAccessibleEverywhere(JavaClass type) {
		for (JavaClass current = type; current != null; current = current.getEnclosingClass().orElse(null)) {
			if (!current.getModifiers().contains(JavaModifier.PUBLIC)) {
				return false;
			}
		}
		return true;
	}

	@Test
	void everyTypeOnTheAllowListIsPublic() {
		// So that the list shrinks with the surface, instead of going stale.
		assertThat(PUBLIC_TYPES).allSatisfy((name) -> assertThat(
				classes.contain(name) && classes.get(name).getModifiers().contains(JavaModifier.PUBLIC))
			.as(name + " is a public main type")
			.isTrue());
	}

	@Test
	void onlyTheAutoConfigurationUsesSpringBoot() {
		check(noClasses().that()
			.resideOutsideOfPackage("io.distlock.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework.boot..")
			.because("lock-core is the engine without Spring Boot, for plain Spring applications too"));
	}

	@Test
	void packagesAreFreeOfCycles() {
		check(slices().assignedFrom(new PackageSlices()).should().beFreeOfCycles());
	}

	@Test
	void theStoreSpiDependsOnNoOtherDistlockPackage() {
		check(noClasses().that()
			.resideInAPackage("io.distlock.store")
			.should()
			.dependOnClassesThat(resideInAPackage("io.distlock..")
				.and(DescribedPredicate.not(resideInAPackage("io.distlock.store"))))
			.because("a store implements the SPI alone, without the API, the engine, Redis, Spring "
					+ "integration or auto-configuration"));
	}

	@Test
	void everyPackageHasALayer() {
		assertThat(classes.stream()
			.filter((type) -> type.getPackageName().startsWith("io.distlock"))
			.map(ArchitectureTests::layerName)).as("packages without a layer in ArchitectureTests.LAYERS")
			.allMatch((name) -> LAYERS.stream().anyMatch((layer) -> layer.contains(name)));
	}

	@Test
	void noPackageDependsOnOneAboveIt() {
		for (int layer = 0; layer < LAYERS.size() - 1; layer++) {
			List<String> above = LAYERS.subList(layer + 1, LAYERS.size()).stream().flatMap(List::stream).toList();
			check(noClasses().that(inLayers(LAYERS.get(layer)))
				.should()
				.dependOnClassesThat(inLayers(above))
				.because("the packages are layered: " + LAYERS));
		}
	}

	@Test
	void onlyAutoConfigurationDependsOnAutoConfiguration() {
		check(noClasses().that()
			.resideOutsideOfPackage("io.distlock.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("io.distlock.autoconfigure..")
			.because("the auto-configuration is the outermost layer"));
	}

	@Test
	void autoConfigurationsArePublicAndFinal() {
		check(classes().that()
			.areAnnotatedWith(AutoConfiguration.class)
			.should()
			.bePublic()
			.andShould()
			.haveModifier(JavaModifier.FINAL));
	}

	@Test
	void caseIsNotChangedWithoutLocale() {
		check(noClasses().should()
			.callMethod(String.class, "toLowerCase")
			.orShould()
			.callMethod(String.class, "toUpperCase")
			.because("the default locale changes the result (Turkish dotless i); pass " + Locale.class.getName()
					+ ".ROOT"));
	}

	private static void check(ArchRule rule) {
		rule.check(classes);
	}

	private static JavaClasses importMainClasses() {
		// The main classes of lock-core, lock-aspectj and this module, not the tests nor
		// the test harness that shares the io.distlock package.
		return new ClassFileImporter().importUrls(List.of(codeSource(LockTemplate.class),
				codeSource(DistributedLockedAspect.class), codeSource(DistLockAutoConfiguration.class)));
	}

	private static URL codeSource(Class<?> type) {
		return type.getProtectionDomain().getCodeSource().getLocation();
	}

	/**
	 * Puts every package under {@code io.distlock}, {@code io.distlock} itself included,
	 * in a slice of its own, and the front doors of a package in one beside it.
	 */
	private static final class PackageSlices implements SliceAssignment {

		@Override
		public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
			String packageName = javaClass.getPackageName();
			if (packageName.equals("io.distlock") || packageName.startsWith("io.distlock.")) {
				return SliceIdentifier.of(layerName(javaClass));
			}
			return SliceIdentifier.ignore();
		}

		@Override
		public String getDescription() {
			return "packages of io.distlock";
		}

	}

}
