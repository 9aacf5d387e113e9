"""No-op stand-ins for Python modules that Ray imports only to export metrics.

Why this exists: the machine's package mirror has the ray 2.58.0 wheel but not
`opencensus`, `opentelemetry-exporter-prometheus` or `opentelemetry-semantic-conventions`
(the last one is an import-time dependency of the real `opentelemetry-sdk`, which Ray's
OpenTelemetry metric recorder imports). Without them the dashboard and its agent do not
start. Nothing these modules provide affects the Jobs API, so a module that accepts every
attribute and every call is enough. Metrics are excluded from the conformance checks.

The finder is appended to sys.meta_path, so a real installation of any of these
packages always wins over the stand-in.
"""

import importlib.abc
import importlib.machinery
import sys
import types

# Module prefixes served by this stand-in, and only these.
STUBBED_PREFIXES = (
    "opencensus",
    "opentelemetry.exporter.prometheus",
    "opentelemetry.semconv",
)
# Parents that must exist for the above to import; served (empty) only when no real
# package provides them.
PARENT_PACKAGES = ("opentelemetry.exporter",)


class _NoopMeta(type):
    """Class-level attribute access (e.g. `Enum.MEMBER`) yields another no-op class."""

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if cls._semconv and name.isupper():
            return _semconv_key(name)
        return _noop_class(name, cls._semconv)

    def __iter__(cls):
        return iter(())


class _Noop(metaclass=_NoopMeta):
    """Instances accept any constructor arguments, attribute and call."""

    _semconv = False

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Noop()

    def __call__(self, *args, **kwargs):
        return _Noop()

    def __iter__(self):
        return iter(())

    def __bool__(self):
        return False


def _noop_class(name, semconv=False):
    return _NoopMeta(name, (_Noop,), {"_semconv": semconv})


def _semconv_key(name):
    # Semantic-convention constants are attribute keys: the SDK uses them as dict keys
    # with string values, so give it a string (SERVICE_NAME -> "service.name").
    return name.lower().replace("_", ".")


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        semconv = self.__name__.startswith("opentelemetry.semconv")
        if semconv and name.isupper():
            return _semconv_key(name)
        return _noop_class(name, semconv)


class _ParentLoader(importlib.abc.Loader):
    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


class _StubLoader(importlib.abc.Loader):
    def create_module(self, spec):
        module = _StubModule(spec.name)
        module.__path__ = []  # every stand-in is a package, so any submodule imports
        return module

    def exec_module(self, module):
        pass


class _StubFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if any(fullname == p or fullname.startswith(p + ".") for p in STUBBED_PREFIXES):
            return importlib.machinery.ModuleSpec(fullname, _StubLoader(), is_package=True)
        if fullname in PARENT_PACKAGES:
            return importlib.machinery.ModuleSpec(fullname, _ParentLoader(), is_package=True)
        return None


def install():
    if not any(isinstance(f, _StubFinder) for f in sys.meta_path):
        sys.meta_path.append(_StubFinder())


install()
