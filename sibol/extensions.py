"""Extension objects, created unbound and bound to each app in create_app()."""

from typing import TYPE_CHECKING

from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_mail import Mail
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)

if TYPE_CHECKING:
    from flask_sqlalchemy.model import Model as _FSAModel

    class Model(Base, _FSAModel):
        """What `db.Model` is at run time, spelled so the type checker can use it as a base class."""

else:
    Model = db.Model
migrate = Migrate()
login_manager = LoginManager()
mail = Mail()
csrf = CSRFProtect()
compress = Compress()
limiter = Limiter(key_func=get_remote_address)
