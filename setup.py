"""Only what pyproject.toml cannot say: Baohuang's compiled core (yamen/games/baohuang/_core.c)
as an optional C extension. Where no C compiler is found the build of it fails quietly
(``optional=True``) and Yamen installs and runs on its Python engine alone, as before."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "yamen.games.baohuang._core",
            ["yamen/games/baohuang/_core.c"],
            optional=True,
            # the same floating-point rounding as Python's: no fused multiply-add
            extra_compile_args=["-O2", "-ffp-contract=off"],
        )
    ]
)
